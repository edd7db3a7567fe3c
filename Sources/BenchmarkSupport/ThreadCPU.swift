import Foundation

/// CPU time per thread of this process, from `/proc/self/task/*/schedstat` (nanoseconds on CPU)
/// and `comm` (the thread's name): where a benchmark's CPU went, which wall-clock throughput on
/// a shared machine is too noisy to show.
public struct ThreadCPU: Sendable {
    /// Nanoseconds on CPU by thread id, with the thread's name.
    public let threads: [Int: (name: String, nanoseconds: UInt64)]
    /// User plus system CPU time of the whole process, ended threads included (`getrusage`).
    public let processNanoseconds: UInt64
    /// Context switches of the whole process (voluntary: a thread went to sleep; involuntary:
    /// it was preempted), ended threads included.
    public let contextSwitches: (voluntary: Int, involuntary: Int)

    /// Reads every thread of this process now.
    public static func snapshot() -> ThreadCPU {
        var threads: [Int: (name: String, nanoseconds: UInt64)] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for entry in entries {
            guard let tid = Int(entry),
                  let schedstat = try? String(contentsOfFile: "/proc/self/task/\(entry)/schedstat", encoding: .utf8),
                  let onCPU = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            let name = (try? String(contentsOfFile: "/proc/self/task/\(entry)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            threads[tid] = (name, onCPU)
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let microseconds = (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return ThreadCPU(
            threads: threads, processNanoseconds: UInt64(microseconds) * 1000,
            contextSwitches: (usage.ru_nvcsw, usage.ru_nivcsw)
        )
    }

    /// CPU nanoseconds the whole process spent since `earlier`.
    public func processSince(_ earlier: ThreadCPU) -> UInt64 {
        processNanoseconds - min(earlier.processNanoseconds, processNanoseconds)
    }

    /// CPU nanoseconds spent since `earlier`, summed by thread name, largest first (threads that
    /// ended in between are missing). libzmq's I/O threads all have the same name; they are told
    /// apart by creation order (thread id): `ZMQbg/IO/0 #1` is the first context's (the service's,
    /// built before the client's), `#2` the next.
    public func since(_ earlier: ThreadCPU) -> [(name: String, nanoseconds: UInt64)] {
        var byName: [String: UInt64] = [:]
        var ioRank: [Int: Int] = [:]
        for (rank, tid) in threads.filter({ $0.value.name.hasPrefix("ZMQbg/IO/") }).keys.sorted().enumerated() {
            ioRank[tid] = rank + 1
        }
        for (tid, now) in threads {
            let before = earlier.threads[tid]?.nanoseconds ?? 0
            let name = ioRank[tid].map { "\(now.name) #\($0)" } ?? now.name
            byName[name, default: 0] += now.nanoseconds - min(before, now.nanoseconds)
        }
        return byName.map { (name: $0.key, nanoseconds: $0.value) }.sorted { $0.nanoseconds > $1.nanoseconds }
    }
}

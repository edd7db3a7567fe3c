import BenchmarkSupport
import Foundation

/// The CPU counters of everything a cluster run involves, read at one instant: the svcd
/// processes, the PostgreSQL server (the postmaster and all its children), this process, its
/// ended children (pgbench), and the whole machine.
struct CPUSnapshot {
    /// CLOCK_MONOTONIC, nanoseconds.
    let time: UInt64
    /// `utime + stime` summed over the svcd processes.
    let svcdTicks: UInt64
    /// The postmaster's own and reaped children's time plus every live child's own time, so a
    /// backend that ends between two snapshots is still counted (in the postmaster's `cutime`).
    let postgresTicks: UInt64
    /// This process (the load client), `getrusage(RUSAGE_SELF)`.
    let selfNanoseconds: UInt64
    /// This process's ended and waited-for children (pgbench once it has exited).
    let reapedChildrenNanoseconds: UInt64
    /// Busy time of all CPUs from `/proc/stat` (all but idle and iowait).
    let machineBusyTicks: UInt64

    /// Reads the counters now.
    static func take(svcd: [Int32], postmaster: Int32) -> CPUSnapshot {
        let svcdTicks = svcd.reduce(UInt64(0)) { $0 + (ProcStat.read($1)?.ownTicks ?? 0) }
        var postgresTicks: UInt64 = 0
        if let server = ProcStat.read(postmaster) {
            postgresTicks = server.ownTicks + server.reapedChildrenTicks
            postgresTicks += ProcStat.children(of: postmaster).values.reduce(0) { $0 + $1.ownTicks }
        }
        return CPUSnapshot(
            time: MonotonicClock.nanoseconds(), svcdTicks: svcdTicks, postgresTicks: postgresTicks,
            selfNanoseconds: rusageNanoseconds(RUSAGE_SELF), reapedChildrenNanoseconds: rusageNanoseconds(RUSAGE_CHILDREN),
            machineBusyTicks: machineBusyTicks()
        )
    }

    /// What was spent from `earlier` to this snapshot, in seconds.
    func since(_ earlier: CPUSnapshot) -> CPUUsage {
        func seconds(_ now: UInt64, _ then: UInt64) -> Double { Double(now - min(now, then)) / ProcStat.ticksPerSecond }
        return CPUUsage(
            wallSeconds: Double(time - earlier.time) / 1e9,
            svcdSeconds: seconds(svcdTicks, earlier.svcdTicks),
            postgresSeconds: seconds(postgresTicks, earlier.postgresTicks),
            selfSeconds: Double(selfNanoseconds - min(selfNanoseconds, earlier.selfNanoseconds)) / 1e9,
            reapedChildrenSeconds: Double(reapedChildrenNanoseconds - min(reapedChildrenNanoseconds, earlier.reapedChildrenNanoseconds)) / 1e9,
            machineBusySeconds: seconds(machineBusyTicks, earlier.machineBusyTicks)
        )
    }

    private static func rusageNanoseconds(_ who: __rusage_who) -> UInt64 {
        var usage = rusage()
        getrusage(who.rawValue, &usage)
        let microseconds = (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return UInt64(max(0, microseconds)) * 1000
    }

    /// The `cpu` line of `/proc/stat`: user nice system idle iowait irq softirq steal …
    private static func machineBusyTicks() -> UInt64 {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return 0 }
        let values = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard values.count >= 8 else { return 0 }
        // guest time is already part of user time.
        return values[0] + values[1] + values[2] + values[5] + values[6] + values[7]
    }
}

/// CPU seconds spent in a window, by whom.
struct CPUUsage {
    /// The window's length.
    var wallSeconds: Double
    /// All svcd processes.
    var svcdSeconds: Double
    /// The PostgreSQL server: every backend and auxiliary process and the postmaster.
    var postgresSeconds: Double
    /// This process: the service runs' load client.
    var selfSeconds: Double
    /// Ended children of this process: pgbench.
    var reapedChildrenSeconds: Double
    /// Every CPU of the machine, whoever used it.
    var machineBusySeconds: Double
}

/// The machine's load averages (1, 5, 15 minutes) as `/proc/loadavg` has them.
func loadAverages() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

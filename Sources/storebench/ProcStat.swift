import Foundation

/// One process's line of `/proc/<pid>/stat`: its parent and its CPU time in clock ticks.
struct ProcStat {
    /// The parent's process id.
    let parent: Int32
    /// `utime + stime`: the process's own CPU time, all its threads, ended threads included.
    let ownTicks: UInt64
    /// `cutime + cstime`: the CPU time of its children that ended and were waited for.
    let reapedChildrenTicks: UInt64

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`), the unit of `/proc/<pid>/stat`.
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The process `pid` now, `nil` when it is gone.
    static func read(_ pid: Int32) -> ProcStat? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// Parses a stat line; the command name may hold spaces and parentheses, so the fields
    /// are counted from the last `)`.
    static func parse(_ text: String) -> ProcStat? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After ")": state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14, let parent = Int32(fields[1]),
              let utime = UInt64(fields[11]), let stime = UInt64(fields[12]),
              let cutime = UInt64(fields[13]), let cstime = UInt64(fields[14])
        else { return nil }
        return ProcStat(parent: parent, ownTicks: utime + stime, reapedChildrenTicks: cutime + cstime)
    }

    /// Every live process whose parent is `parent`, by process id.
    static func children(of parent: Int32) -> [Int32: ProcStat] {
        var found: [Int32: ProcStat] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = read(pid), stat.parent == parent else { continue }
            found[pid] = stat
        }
        return found
    }
}

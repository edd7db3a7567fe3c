import Foundation

/// Resident set size of a process, from `/proc/<pid>/status` (`VmRSS`), in bytes; `nil` when the
/// process is gone or the line is missing.
func residentBytes(ofProcess pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 3, let kibibytes = Int(fields[1]), fields[2] == "kB" else { return nil }
        return kibibytes * 1024
    }
    return nil
}

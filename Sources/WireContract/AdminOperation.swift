/// The operations of the admin endpoint, named as in a request's `op` member.
public enum AdminOperation: String, Sendable, Hashable, CaseIterable {
    /// The service's state, version, pid, uptime, tax rate and store.
    case status
    /// The admin and use-case addresses.
    case endpoints
    /// Per-use-case statistics (JSON, or Prometheus text with `format`).
    case stats
    /// Whether every part answers.
    case health
    /// Refuse new use-case requests with `unavailable` until `resume`.
    case drain
    /// Take use-case requests again after `drain`.
    case resume
    /// Stop gracefully.
    case shutdown
    /// Write a consistent copy of the store to `path`.
    case backup
    /// Change the log level to `level`.
    case setLogLevel

    /// Every operation's name, comma separated, for error messages that list them.
    public static var namesList: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}

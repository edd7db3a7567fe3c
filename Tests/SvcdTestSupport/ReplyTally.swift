import WireTestSupport

/// How many replies succeeded and how many failed with each code.
public struct ReplyTally: Equatable, Sendable, CustomStringConvertible {
    /// Replies with `"ok": true`.
    public var ok = 0
    /// Error code → how many replies had it (`unreadable` for a reply without one).
    public var codes: [String: Int] = [:]

    /// The tally of `replies`.
    public init(_ replies: [Reply]) {
        for reply in replies {
            if reply.ok == true { ok += 1 } else { codes[reply.code ?? "unreadable", default: 0] += 1 }
        }
    }

    /// An expected tally; codes with a count of 0 are left out, so they compare equal to absent ones.
    public init(ok: Int, codes: [String: Int] = [:]) {
        self.ok = ok
        self.codes = codes.filter { $0.value != 0 }
    }

    /// "ok=3 business_rule=2".
    public var description: String {
        "ok=\(ok)" + codes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
    }
}

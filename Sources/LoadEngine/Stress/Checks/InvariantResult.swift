/// The verdict on one invariant after a stress run.
public struct InvariantResult: Sendable {
    /// Short name, e.g. `favoritesCap`.
    public let name: String
    /// What it asserts, in plain words.
    public let rule: String
    /// How many things were checked (users, items, emails, restaurants, orders).
    public internal(set) var checked = 0
    /// How many breaks were found.
    public internal(set) var violationCount = 0
    /// The first breaks, described.
    public internal(set) var violations: [String] = []

    init(name: String, rule: String) {
        self.name = name
        self.rule = rule
    }

    /// Records a break.
    mutating func fail(_ detail: String) {
        violationCount += 1
        if violations.count < 20 { violations.append(detail) }
    }

    /// Whether nothing broke.
    public var holds: Bool { violationCount == 0 }
}

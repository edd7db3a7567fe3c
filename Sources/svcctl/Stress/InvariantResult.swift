/// The verdict on one invariant after a stress run.
struct InvariantResult: Sendable {
    /// Short name, e.g. `favoritesCap`.
    let name: String
    /// What it asserts, in plain words.
    let rule: String
    /// How many things were checked (users, items, emails, restaurants, orders).
    var checked = 0
    /// How many breaks were found.
    var violationCount = 0
    /// The first breaks, described.
    var violations: [String] = []

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
    var holds: Bool { violationCount == 0 }
}

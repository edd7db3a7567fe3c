import Testing

/// Which repository implementations a test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres
    var testDescription: String { rawValue }
}

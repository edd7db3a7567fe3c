import Testing

/// One throwaway PostgreSQL server shared by a suite (and the suites nested in it): started
/// before its tests, always stopped after them. Each test takes a database of its own on it
/// (``PostgresServer/createDatabase(_:)``). A server that cannot start fails the suite's tests;
/// they are never skipped.
///
/// `fsync: false` by default: these suites kill svcd processes, never PostgreSQL itself, and
/// ``PostgresServer/pause()`` is a clean shutdown that writes everything out, so what a commit
/// would lose without fsync (a power cut) is not what they test; fsync would only slow them down.
public struct SharedPostgres: SuiteTrait, TestScoping {
    @TaskLocal static var current: PostgresServer?

    /// Whether commits reach the disk.
    public let fsync: Bool

    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withPostgres(fsync: fsync) { server in
            try await SharedPostgres.$current.withValue(server) {
                try await function()
            }
        }
    }

    /// The suite's server; fails outside a `.sharedPostgres` suite.
    public static func server() throws -> PostgresServer {
        try #require(current, "the test must run inside a suite with the .sharedPostgres trait")
    }

    /// A new, empty database of the test's own on the suite's server.
    public static func newDatabase() async throws -> TestDatabase {
        try await TestDatabase.create(on: try server())
    }
}

extension Trait where Self == SharedPostgres {
    /// Runs the suite, and the suites nested in it, with one throwaway PostgreSQL server.
    public static var sharedPostgres: Self { SharedPostgres(fsync: false) }
}

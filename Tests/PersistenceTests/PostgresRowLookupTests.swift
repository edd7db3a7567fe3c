import Domain
import Foundation
@testable import Persistence
import RestaurantTesting
import SvcdTestSupport
import Testing
import Transport

/// Reads by id on PostgreSQL that arrive while one runs go together in one statement, and each
/// caller still gets exactly its own row, its own absence or its own mapping error.
@Suite(.postgres) struct PostgresRowLookupTests {
    @Test func readsByIdAskedWhileOneRunsGoInOneStatementAndEachGetsItsOwnAnswer() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = try #require(URL(string: url)).lastPathComponent
        var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: url))
        configuration.readBatches = 1
        configuration.maximumConnections = 4
        configuration.connectionWait = .seconds(60)
        configuration.queueTimeTarget = nil
        let store = PostgresStore(configuration: configuration, events: WireEventEncoding(), logger: .init(label: "tests.postgres"))
        store.start()
        try await store.migrate()
        let users = PostgresUserRepository(store: store)
        for index in 0..<20 {
            #expect(try await users.insert(member(index)) == .stored(member(index)))
        }
        // A row its mapper refuses: only the reads of that id may fail.
        _ = try await server.psql("UPDATE users SET email = 'no address' WHERE id = 'u7'", database: database)

        // The table locked by another session: the first read waits in the server, holding the
        // lookup's one statement, so every read asked meanwhile waits in the lookup.
        let holder = Task { try await server.psql("BEGIN; LOCK TABLE users IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT;", database: database) }
        func locks(granted: Bool) async throws -> Int {
            Int(try await server.psql(
                "SELECT count(*) FROM pg_locks WHERE relation = 'users'::regclass AND granted = \(granted) AND pid <> pg_backend_pid()", database: database
            )) ?? -1
        }
        try await waitFor("the table lock is held") { try await locks(granted: true) >= 1 }
        let first = Task { try await users.user(id: UserID("u0")) }
        try await waitFor("the first read waits for the lock") { try await locks(granted: false) == 1 }

        let asked = (1..<20).map { "u\($0)" } + ["u3", "u3", "missing", "u7", "u12"]
        let reads = asked.map { id in Task { try await users.user(id: UserID(id)) } }
        try await waitUntil("every read asked meanwhile waits in the lookup") { users.readsWaitingTogether == asked.count }
        #expect(try await locks(granted: false) == 1, "the waiting reads have sent no statement of their own")

        _ = try await server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()", database: database)
        _ = await holder.result

        #expect(try await first.value == member(0))
        for (id, read) in zip(asked, reads) {
            switch (id, await read.result) {
            case ("missing", .success(let found)):
                #expect(found == nil, "an id without a row is nil")
            case ("u7", .failure(let error)):
                #expect(error is StoreError, "the unmappable row fails its own read: \(error)")
            case (_, .success(let found)):
                #expect(found?.id.rawValue == id, "each read gets the row of its own id")
                #expect(found?.email.uniquenessKey == "\(id)@example.com")
            case (_, .failure(let error)):
                Issue.record("\(id): \(error)")
            }
        }
        #expect(users.readsWaitingTogether == 0)
        await store.close()
    }
}

private func member(_ index: Int) -> User {
    User(id: UserID("u\(index)"), name: "Member \(index)", email: EmailAddress("u\(index)@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))
}

/// Polls an asynchronous `condition` (a query) until it holds, for at most 20 s.
private func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(what: what) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

import Domain
import Foundation
@testable import Persistence
import RestaurantTesting
import SvcdTestSupport
import Testing

/// Reads by id on PostgreSQL that arrive while one runs go together in one statement, and each
/// caller still gets exactly its own row, its own absence or its own mapping error.
@Suite(.postgres) struct PostgresRowLookupTests {
    @Test func readsByIdAskedWhileOneRunsGoInOneStatementAndEachGetsItsOwnAnswer() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = try #require(URL(string: url)).lastPathComponent
        let store = try await openStore(url)
        let users = PostgresUserRepository(store: store)
        for index in 0..<20 {
            #expect(try await users.insert(member(index)) == .stored(member(index)))
        }
        // A row its mapper refuses: only the reads of that id may fail.
        _ = try await server.psql("UPDATE users SET email = 'no address' WHERE id = 'u7'", database: database)

        let asked = (1..<20).map { "u\($0)" } + ["u3", "u3", "missing", "u7", "u12"]
        let (first, reads) = try await whileLocked("users", server: server, database: database, waiting: { users.readsWaitingTogether }) {
            Task { try await users.user(id: UserID("u0")) }
        } meanwhile: {
            asked.map { id in Task { try await users.user(id: UserID(id)) } }
        }
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

    @Test func readsOfSeveralIdsAskedTogetherEachGetTheirOwnItemsInTheirOrder() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = try #require(URL(string: url)).lastPathComponent
        let store = try await openStore(url)
        let restaurants = PostgresRestaurantRepository(store: store), menu = PostgresMenuRepository(store: store)
        try await restaurants.insert(Restaurant(
            id: RestaurantID("r"), name: "Kitchen", cuisine: "Test", priceLevel: 1, address: "1 Way", latitude: 0, longitude: 0,
            createdAt: Timestamp(millisecondsSinceEpoch: 0)
        ))
        for index in 0..<12 {
            try await menu.insert(MenuItem(
                id: MenuItemID("m\(index)"), restaurantId: RestaurantID("r"), name: "Dish \(index)",
                price: Money(minorUnits: 100 + index, currency: .usd), stock: index
            ))
        }
        let asked: [[String]] = [["m3", "m1"], ["m1"], ["m11", "none", "m0", "m11"], ["none"], ["m5", "m6", "m7", "m8", "m9", "m10"], ["m2", "m4"]]
        let (first, reads) = try await whileLocked("menu_items", server: server, database: database, waiting: { menu.readsWaitingTogether }) {
            Task { try await menu.items(ids: [MenuItemID("m0")]) }
        } meanwhile: {
            asked.map { ids in Task { try await menu.items(ids: ids.map(MenuItemID.init)) } }
        }
        #expect(try await first.value.map(\.id.rawValue) == ["m0"])
        for (ids, read) in zip(asked, reads) {
            let items = try await read.value
            #expect(items.map(\.id.rawValue) == ids.filter { $0 != "none" }, "each read gets its own items, in its order, unknown ids skipped")
            #expect(items.allSatisfy { $0.price.minorUnits == 100 + Int($0.id.rawValue.dropFirst())! })
        }
        await store.close()
    }
}

/// A store on `url` whose reads by id go one statement at a time, so that reads asked while one
/// runs wait together.
private func openStore(_ url: String) async throws -> PostgresStore {
    try await PostgresSuite.openStore(url: url, connections: 4) { $0.readBatches = 1 }
}

/// Runs `first` while another session holds `table` locked, so that its read waits in the server
/// holding the lookup's one statement; then `meanwhile`, whose reads must all wait in the lookup
/// (`waiting` counts them) without a statement of their own; then ends the lock.
private func whileLocked<First, Reads: Collection>(
    _ table: String, server: PostgresServer, database: String, waiting: () -> Int,
    first: () -> First, meanwhile: () -> Reads
) async throws -> (First, Reads) {
    let holder = Task { try await server.psql("BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT;", database: database) }
    func locks(granted: Bool) async throws -> Int {
        Int(try await server.psql(
            "SELECT count(*) FROM pg_locks WHERE relation = '\(table)'::regclass AND granted = \(granted) AND pid <> pg_backend_pid()", database: database
        )) ?? -1
    }
    try await waitUntil("the table lock is held", timeout: .seconds(20), interval: .milliseconds(10)) { try await locks(granted: true) >= 1 }
    let started = first()
    try await waitUntil("the first read waits for the lock", timeout: .seconds(20), interval: .milliseconds(10)) { try await locks(granted: false) == 1 }
    let reads = meanwhile()
    try await waitUntil("every read asked meanwhile waits in the lookup") { waiting() == reads.count }
    #expect(try await locks(granted: false) == 1, "the waiting reads have sent no statement of their own")
    _ = try await server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()", database: database)
    _ = await holder.result
    return (started, reads)
}

private func member(_ index: Int) -> User {
    User(id: UserID("u\(index)"), name: "Member \(index)", email: EmailAddress("u\(index)@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))
}

import Domain
import Foundation
import Logging
import Persistence
import SvcdTestSupport
import Testing

@testable import ServiceApp

/// `--seed-sample` is all or nothing: a seeding stopped after any number of writes (what a kill
/// leaves, since each write is atomic) is finished by the next start, and the store ends exactly
/// as an uninterrupted seeding leaves it; a finished sample is not seeded again.
@Suite(.serialized) struct SampleSeedingTests {
    /// Stops after the first write, after the users and one restaurant, within the reviews, and
    /// one write before the end (SQLite); within the reviews (PostgreSQL, where the same script
    /// runs under the seeding lock).
    @Test(arguments: [(Store.sqlite, 1), (.sqlite, 62), (.sqlite, 2_500), (.sqlite, -1), (.postgres, 2_500)])
    func aSeedingStoppedAfterAnyWriteIsFinishedByTheNextStartAsIfNeverStopped(store kind: Store, stopAfter: Int) async throws {
        let expected = try await Self.uninterrupted.value
        try await kind.withLocations { interrupted in
            let limit = stopAfter > 0 ? stopAfter : expected.writes - 1
            try await withStore(interrupted) { store, repositories in
                await #expect(throws: SeedingStopped.self) {
                    try await seedSample(into: repositories, of: store, taxRate: Self.taxRate, logger: Self.logger, stoppingAfter: limit)
                }
            }
            try await withStore(interrupted) { store, repositories in
                let summary = try #require(
                    try await seedSample(into: repositories, of: store, taxRate: Self.taxRate, logger: Self.logger),
                    "a partial sample must be finished, not left as 'holds data already'"
                )
                #expect(summary.resumed)
                #expect(summary.writes == expected.writes - limit, "the finishing run writes exactly what the stopped one did not")
                let finished = try await fingerprint(repositories)
                #expect(finished.count == expected.rows.count)
                for (row, (got, wanted)) in zip(finished, expected.rows).enumerated() where got != wanted {
                    Issue.record("row \(row) differs from an uninterrupted seeding:\n  got      \(got)\n  expected \(wanted)")
                    break
                }
            }
            try await withStore(interrupted) { store, repositories in
                let again = try await seedSample(into: repositories, of: store, taxRate: Self.taxRate, logger: Self.logger)
                #expect(again == nil, "a finished sample is seeded again: \(String(describing: again))")
            }
        }
    }

    /// What an uninterrupted seeding leaves (in the memory store: every store holds the same
    /// rows), computed once.
    static let uninterrupted = Task {
        var configuration = ServiceConfiguration()
        configuration.store = .memory
        configuration.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sample-seeding-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        return try await SampleSeedingTests().withStore(configuration) { store, repositories in
            let summary = try #require(try await seedSample(into: repositories, of: store, taxRate: taxRate, logger: logger))
            return (rows: try await SampleSeedingTests().fingerprint(repositories), writes: summary.writes)
        }
    }

    /// The store a test seeds.
    enum Store: Sendable, CustomTestStringConvertible {
        case sqlite, postgres

        var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

        /// Runs `body` with an empty store's configuration (a temporary directory, and on
        /// PostgreSQL a database on a throwaway server), removed afterwards.
        func withLocations(_ body: (ServiceConfiguration) async throws -> Void) async throws {
            try await withTemporaryDirectory { root in
                var configuration = ServiceConfiguration()
                configuration.dataDirectory = root + "/interrupted"
                guard self == .postgres else { return try await body(configuration) }
                try await withPostgres(fsync: false) { server in
                    configuration.store = .postgres
                    configuration.databaseURL = try PostgresURL(parsing: try await server.createDatabase())
                    try await body(configuration)
                }
            }
        }
    }

    @Test func aStoreHoldingOtherDataIsNotSeeded() async throws {
        try await withTemporaryDirectory { root in
            var configuration = ServiceConfiguration()
            configuration.dataDirectory = root
            try await withStore(configuration) { store, repositories in
                let create = CreateRestaurant(restaurants: repositories.restaurants, clock: SystemWallClock(), ids: PresetIdentifier("r-own"))
                _ = try await create.execute(.init(name: "Own", cuisine: "Test", priceLevel: 1, address: "1 Own St", latitude: 0, longitude: 0))
                let seeded = try await seedSample(into: repositories, of: store, taxRate: Self.taxRate, logger: Self.logger)
                #expect(seeded == nil, "seeded a store that holds a restaurant of its own: \(String(describing: seeded))")
                #expect(try await repositories.users.user(id: UserID("u-000001")) == nil)
            }
        }
    }

    // MARK: - Support

    static let taxRate = TaxRate(partsPerMillion: 80_000)!
    static let logger = Logger(label: "sample-seeding-tests")

    /// Every row the sample writes, read back by id, one line per entity with its derived values
    /// (rating, review count, stock), in script order.
    func fingerprint(_ repositories: Repositories) async throws -> [String] {
        var rows: [String] = []
        for number in 1...SampleData.userCount {
            let id = UserID(SampleIds(prefix: "u").id(number))
            rows.append("\(String(describing: try await repositories.users.user(id: id)))")
            rows.append("\(try await repositories.orders.orders(of: id, after: nil, limit: 100))")
            rows.append("\(try await repositories.favorites.favorites(of: id))")
        }
        for number in 1...300 {
            let id = RestaurantID(SampleIds(prefix: "r").id(number))
            rows.append("\(String(describing: try await repositories.restaurants.restaurant(id: id)))")
            rows.append("\(try await repositories.menu.menu(of: id))")
            rows.append("\(try await repositories.restaurants.reviews(of: id, after: nil, limit: 100))")
        }
        rows.append("restaurants: \(try await repositories.restaurants.newest(after: nil, limit: 1_000).count)")
        return rows
    }

    @discardableResult
    func withStore<T>(_ configuration: ServiceConfiguration, _ body: (ServiceStore, Repositories) async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let (store, repositories) = try await openStore(configuration, clock: SystemWallClock(), metrics: ServiceMetrics(), logger: Self.logger)
        do {
            let result = try await body(store, repositories)
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }

}

private func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sample-seeding-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    return try await body(root)
}

extension SampleData.Summary {
    /// Rows written in all.
    var writes: Int { users + restaurants + reviews + menuItems + favorites + orders }
}

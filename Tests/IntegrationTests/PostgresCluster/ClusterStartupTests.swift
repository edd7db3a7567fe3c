import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON

extension PostgresClusterSuite {
    /// Three instances started at once on one empty database with `--seed-sample`: they wait for
    /// each other's migration and seeding, so the sample set is there exactly once, every
    /// instance serves it, and each reports its store as PostgreSQL, reachable.
    @Suite
    struct ClusterStartupTests {
        @Test func threeInstancesStartedAtOnceSeedAnEmptyDatabaseExactlyOnce() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url, seed: true) { cluster in
                // Exactly the sample's users and restaurants, by id.
                #expect(try await database.integer("SELECT count(*) FROM users") == 60)
                #expect(try await database.psql("SELECT string_agg(id, ',' ORDER BY id) FROM users")
                    == (1...60).map { String(format: "u-%06d", $0) }.joined(separator: ","))
                #expect(try await database.integer("SELECT count(*) FROM restaurants") == 300)
                #expect(try await database.psql("SELECT string_agg(id, ',' ORDER BY id) FROM restaurants")
                    == (1...300).map { String(format: "r-%06d", $0) }.joined(separator: ","))

                // One instance seeded; the other two found the data there (they waited for it).
                let logs = cluster.indices.map { cluster.child($0).stderrText }
                let seeders = logs.filter { $0.contains("seeded sample data") }
                #expect(seeders.count == 1, "\(cluster.stderrTexts)")
                #expect(logs.filter { $0.contains("the store holds data already") }.count == 2, "\(cluster.stderrTexts)")
                // Every other table holds what the seeding instance says it wrote: once, not twice.
                let summary = try #require(seeders.first.flatMap(Self.seedSummary), "no seeding summary in:\n\(cluster.stderrTexts)")
                #expect(summary.users == 60 && summary.restaurants == 300)
                #expect(try await database.integer("SELECT count(*) FROM reviews") == summary.reviews)
                #expect(try await database.integer("SELECT count(*) FROM menu_items") == summary.menuItems)
                #expect(try await database.integer("SELECT count(*) FROM favorites") == summary.favorites)
                #expect(try await database.integer("SELECT count(*) FROM orders") == summary.orders)
                #expect(summary.reviews > 0 && summary.menuItems > 0 && summary.favorites > 0 && summary.orders > 0)
                // Each migration ran once.
                #expect(try await database.integer("SELECT count(*) - count(DISTINCT name) FROM schema_migrations") == 0)
                #expect(try await database.integer("SELECT count(*) FROM schema_migrations") >= 2)

                for instance in cluster.indices {
                    // Every instance serves the same sample.
                    let profile = try await cluster.succeed(.getUserProfile, on: instance, ["userId": "u-000001"])
                    #expect(profile["profile"]?["email"]?.stringValue == "ada.sample1@example.com", "instance \(instance)")
                    let restaurant = try await cluster.succeed(.getRestaurant, on: instance, ["restaurantId": "r-000300"])
                    #expect(restaurant["restaurant"]?["id"]?.stringValue == "r-000300", "instance \(instance)")
                    // And says what it stores in.
                    let status = try await cluster.status(of: instance)
                    #expect(status["state"]?.stringValue == "running", "instance \(instance): \(status)")
                    #expect(status["store"]?["kind"]?.stringValue == "postgres", "instance \(instance): \(status)")
                    #expect(status["store"]?["reachable"]?.boolValue == true, "instance \(instance): \(status)")
                    #expect(status["pid"]?.intValue == Int(cluster.child(instance).pid))
                }
            }
        }

        /// The counts of svcd's "seeded sample data" log line.
        private static func seedSummary(_ log: String) -> (users: Int, restaurants: Int, reviews: Int, menuItems: Int, favorites: Int, orders: Int)? {
            guard let match = log.firstMatch(
                of: /(\d+) users, (\d+) restaurants, (\d+) reviews, (\d+) menu items, (\d+) favorites, (\d+) orders/)
            else { return nil }
            let numbers = [match.1, match.2, match.3, match.4, match.5, match.6].compactMap { Int($0) }
            guard numbers.count == 6 else { return nil }
            return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        }
    }
}

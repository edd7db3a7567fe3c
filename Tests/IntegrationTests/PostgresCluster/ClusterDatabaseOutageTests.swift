import Foundation
import RestaurantClient
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension PostgresClusterSuite {
    /// PostgreSQL stopped and started again under load: while it is away every request is
    /// answered within 2 s (`unavailable`, or `internal` with outcome `unknown` for a write caught
    /// committing), none hangs and no svcd crashes; once it is back, every instance
    /// serves again by itself; no acknowledged write is lost, and the unknown ones are settled by
    /// resending them with their keys; the event sequence has no gap and one event per stored
    /// write.
    ///
    /// It pauses the database server, so it has a server of its own rather than the suite's.
    @Suite
    struct ClusterDatabaseOutageTests {
        /// The contract's 2 s plus slack for scheduling on a loaded two-core machine.
        private static let replyBound: Duration = .milliseconds(2500)

        @Test func requestsAreAnsweredWithinTwoSecondsWhileTheDatabaseIsAwayAndServiceResumesByItself() async throws {
            try await withPostgres(fsync: false) { server in
                let database = try await TestDatabase.create(on: server)
                try await withSvcdCluster(databaseURL: database.url) { cluster in
                    try await outage(server, database, cluster)
                }
            }
        }

        private func outage(_ server: PostgresServer, _ database: TestDatabase, _ cluster: SvcdCluster) async throws {
            let clock = ContinuousClock()
            let restaurant = try await cluster.newRestaurant(on: 0, "Outage")
            let initialStock = 100_000
            let item = try await cluster.newItem(on: 1, in: restaurant, stock: initialStock)
            let user = try await cluster.newUser(on: 2, "outage")
            let run = UUID().uuidString.prefix(8)
            // Per instance: two writers (orders and reviews by turns, each with its own key) and a reader.
            let clients = cluster.indices.flatMap { instance -> [ClusterLoad.Client] in
                let writers = (0..<2).map { writer in
                    ClusterLoad.Client(instance: instance) { sequence in
                        let key = "outage-\(run)-\(instance)-\(writer)-\(sequence)"
                        return sequence % 2 == 0
                            ? ClusterLoad.Request(.placeOrder, [
                                "userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "8 Outage Rd",
                            ], idempotencyKey: key)
                            : ClusterLoad.Request(.addReview, [
                                "userId": .string(user), "restaurantId": .string(restaurant), "rating": 2, "text": "outage",
                            ], idempotencyKey: key)
                    }
                }
                let reader = ClusterLoad.Client(instance: instance) { sequence in
                    sequence % 2 == 0
                        ? ClusterLoad.Request(.getRestaurant, ["restaurantId": .string(restaurant)])
                        : ClusterLoad.Request(.getMenu, ["restaurantId": .string(restaurant)])
                }
                return writers + [reader]
            }
            let load = try ClusterLoad.start(cluster, clients: clients)
            let records: [ClusterLoad.Record]
            let pausing: ContinuousClock.Instant, down: ContinuousClock.Instant
            let resuming: ContinuousClock.Instant, up: ContinuousClock.Instant
            var recovery: [Duration] = []
            var statusWhileDown: JSONValue?
            do {
                try await load.waitUntil(timeout: 60, "every client had 5 ok replies") { records in
                    clients.indices.allSatisfy { client in records.filter { $0.client == client && $0.ok }.count >= 5 }
                }
                pausing = clock.now
                try await server.pause()
                down = clock.now
                // Down for as long as it takes every client to be answered twice for requests it
                // sent while the server was certainly away (about two 1.5 s waits each).
                try await load.waitUntil(timeout: 60, "every client answered twice while the database was down") { records in
                    clients.indices.allSatisfy { client in
                        records.filter { $0.client == client && $0.sentAt >= down && $0.answeredAt != nil }.count >= 2
                    }
                }
                statusWhileDown = try? await cluster.status(of: 0)
                resuming = clock.now
                try await server.resume()
                up = clock.now
                // Each instance serves again by itself: no restart, no signal.
                for instance in cluster.indices {
                    try await load.waitUntil(timeout: 60, "instance \(instance) answered ok again after the resume") { records in
                        records.contains { $0.instance == instance && $0.sentAt >= up && $0.ok }
                    }
                    let firstOk = load.records.filter { $0.instance == instance && $0.sentAt >= up && $0.ok }.compactMap(\.answeredAt).min()
                    recovery.append((firstOk ?? up) - up)
                }
                try await load.waitUntil(timeout: 60, "every client had 3 ok replies after the resume") { records in
                    clients.indices.allSatisfy { client in records.filter { $0.client == client && $0.sentAt >= up && $0.ok }.count >= 3 }
                }
                records = try await load.finish()
            } catch {
                _ = try? await load.finish()
                try? await server.resume()
                throw error
            }

            // No request hung (each was answered within the clients' 10 s), and each sent while the
            // database was going, gone or coming back was answered within the bound, whatever it got.
            let hung = records.filter { $0.reply == nil }.map { record in
                "\(record.request.useCase) on instance \(record.instance), sent \(record.sentAt - pausing) after the pause began"
            }
            #expect(hung.isEmpty, "requests without a reply within 10 s: \(hung)")
            let slowest = records.filter { $0.sentAt >= pausing && $0.sentAt < up }.compactMap(\.latency).max() ?? .zero
            #expect(slowest <= Self.replyBound, "the slowest reply to a request sent during the outage took \(slowest)")
            // While the database was away: unavailable, or a write whose commit outcome is unknown.
            let whileDown = records.filter { $0.sentAt >= down && ($0.answeredAt ?? .now) <= resuming }
            #expect(whileDown.count >= 2 * clients.count)
            for record in whileDown {
                let unknownCommit = record.code == "internal" && record.reply?.outcome == "unknown" && record.request.idempotencyKey != nil
                #expect(record.code == "unavailable" || unknownCommit, "sent while the database was down: \(String(describing: record.reply))")
            }
            // Around the pause and the resume: ok, unavailable, overloaded (a request that waited in
            // vain for a connection while others still succeeded, as the database went) or an
            // unknown commit outcome, nothing else; each had no effect but the last.
            for record in records where record.reply != nil && !record.ok && record.code != "unavailable" && record.code != "overloaded" {
                #expect(record.code == "internal" && record.reply?.outcome == "unknown", "\(String(describing: record.reply))")
            }
            for record in records where record.reply != nil && record.code != "internal" {
                #expect(record.reply?.outcome == nil, "only an unknown commit outcome has an outcome: \(String(describing: record.reply))")
            }
            for instance in cluster.indices {
                #expect(cluster.child(instance).isRunning, "instance \(instance) still runs:\n\(cluster.stderrTexts)")
            }
            #expect(statusWhileDown?["store"]?["reachable"]?.boolValue == false, "status while down: \(String(describing: statusWhileDown))")
            for (instance, took) in recovery.enumerated() {
                #expect(took <= .seconds(15), "instance \(instance) served again \(took) after the resume")
            }

            // Writes whose commit outcome is unknown are settled by resending them with their keys.
            var settled: [Reply] = []
            for record in records where record.reply?.outcome == "unknown" {
                let again = try await cluster.send(record.request.useCase, on: record.instance, record.request.params, idempotencyKey: record.request.idempotencyKey)
                try #require(again.ok == true, "resending an unknown write: \(again)")
                settled.append(again)
            }
            // Exactly the acknowledged (and settled) writes are stored: none lost, none from a
            // request answered unavailable.
            let acknowledged = records.filter(\.ok).compactMap(\.reply) + settled
            let orders = Set(acknowledged.compactMap { $0.result?["order"]?["id"]?.stringValue })
            let reviews = Set(acknowledged.compactMap { $0.result?["review"]?["id"]?.stringValue })
            let storedOrders = Set(try await database.psql("SELECT id FROM orders WHERE user_id = '\(user)'").split(separator: "\n").map(String.init))
            let storedReviews = Set(try await database.psql("SELECT id FROM reviews WHERE restaurant_id = '\(restaurant)'").split(separator: "\n").map(String.init))
            #expect(storedOrders == orders, "lost: \(orders.subtracting(storedOrders).count), unacknowledged but stored: \(storedOrders.subtracting(orders).count)")
            #expect(storedReviews == reviews, "lost: \(reviews.subtracting(storedReviews).count), unacknowledged but stored: \(storedReviews.subtracting(reviews).count)")
            #expect(try await cluster.stock(of: item, in: restaurant, on: 2) == initialStock - orders.count)
            let marker = try await cluster.newUser(on: 1, "outage-marker")
            let events = try await RestaurantClient(endpointsFiles: [cluster.dataDirectory(0)]).eventLogBefore(key: marker)
            #expect(events.areConsecutive() && events.count == 3 + orders.count + reviews.count, "\(events.count) events for \(3 + orders.count + reviews.count) writes")
            #expect(Set(events.filter { $0.type == EventType.orderPlaced.rawValue }.map(\.key)) == orders)
            #expect(Set(events.compactMap { JSONValue.object($0.data)["review"]?["id"]?.stringValue }) == reviews)
            for instance in cluster.indices {
                let status = try await cluster.status(of: instance)
                #expect(status["store"]?["reachable"]?.boolValue == true, "instance \(instance): \(status)")
            }
            let unavailable = records.filter { $0.code == "unavailable" }.count
            print("""
                database outage: \(records.count) requests, \(unavailable) unavailable, \(settled.count) unknown outcomes settled; \
                slowest reply during the outage \(slowest); down \(resuming - down) (pause took \(down - pausing)); \
                instances served again \(recovery.map { "\($0)" }.joined(separator: ", ")) after the resume
                """)
        }
    }
}

import Foundation
import RestaurantClient
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension PostgresClusterSuite {
    /// Network faults between one instance and the database, on a test host of the test's own
    /// (``FaultNetwork``: a namespace and veth pairs; faults on the database link only). Instance
    /// 0 reaches the database over loopback; instance 1 runs in the namespace and reaches it over
    /// the database link through a ``DelayProxy`` (which adds the latency: no `netem` here). With the
    /// link silently dropping everything, instance 1 answers `unavailable` within 2 s, a cluster
    /// client moves to instance 0 and every call succeeds; once healed, instance 1 serves again
    /// by itself; 50 ms added to every round trip costs throughput but no error; no acknowledged
    /// write is lost and no key takes effect twice.
    ///
    /// Needs root: without it, the test fails saying so.
    @Suite
    struct ClusterNetworkFaultTests {
        /// The contract's 2 s plus slack for scheduling on a loaded two-core machine.
        private static let replyBound: Duration = .milliseconds(2500)

        @Test func aPartitionFromTheDatabaseIsAnsweredUnavailableInTwoSecondsAndAddedLatencyCostsNoError() async throws {
            let server = try SharedPostgres.server()
            let database = try await SharedPostgres.newDatabase()
            try await withFaultNetwork { network in
                let proxy = try await DelayProxy.start(
                    listeningOn: network.databaseAddress, upstreamHost: server.host, upstreamPort: server.port, milliseconds: 50)
                do {
                    let inside = SvcdCluster.Override(
                        databaseURL: "postgres://\(server.user)@\(proxy.host):\(proxy.port)/\(database.name)",
                        launcher: network.launcher, arguments: ["--host", network.instanceAddress, "--allow-plaintext"]
                    )
                    try await withSvcdCluster(instances: 2, databaseURL: database.url, overrides: [1: inside]) { cluster in
                        try await faults(network, proxy, database, cluster)
                    }
                } catch {
                    await proxy.stop()
                    throw error
                }
                await proxy.stop()
            }
        }

        private func faults(_ network: FaultNetwork, _ proxy: DelayProxy, _ database: TestDatabase, _ cluster: SvcdCluster) async throws {
            let clock = ContinuousClock()
            let restaurant = try await cluster.newRestaurant(on: 0, "Partition")
            let initialStock = 100_000
            let item = try await cluster.newItem(on: 0, in: restaurant, stock: initialStock)
            let user = try await cluster.newUser(on: 0, "partition")
            let run = UUID().uuidString.prefix(8)
            let order: JSONValue = ["userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "1 Veth Lane"]
            // Instance 1 (inside): two keyed writers and a reader; instance 0: one of each.
            let placement = [1, 1, 1, 0, 0]
            let clients = placement.enumerated().map { index, instance in
                ClusterLoad.Client(instance: instance) { sequence in
                    index == 2 || index == 4
                        ? ClusterLoad.Request(.getMenu, ["restaurantId": .string(restaurant)])
                        : ClusterLoad.Request(.placeOrder, order, idempotencyKey: "partition-\(run)-\(index)-\(sequence)")
                }
            }
            let insideClients = clients.indices.filter { clients[$0].instance == 1 }
            let load = try ClusterLoad.start(cluster, clients: clients)
            let records: [ClusterLoad.Record]
            let partitioned: ContinuousClock.Instant, healed: ContinuousClock.Instant
            let steady: ContinuousClock.Instant, delayed: ContinuousClock.Instant, finished: ContinuousClock.Instant
            var viaClient: [Result<Order, RestaurantClientError>] = []
            do {
                try await load.waitUntil(timeout: 60, "every client had 5 ok replies") { records in
                    clients.indices.allSatisfy { client in records.filter { $0.client == client && $0.ok }.count >= 5 }
                }
                try await network.partitionDatabase()
                partitioned = clock.now
                // A cluster client, given both instances, is served throughout.
                let client = try RestaurantClient(endpointsFiles: cluster.indices.map { cluster.dataDirectory($0) })
                for call in 0..<20 {
                    do {
                        viaClient.append(.success(try await client.placeOrder(
                            userId: user, items: [OrderItemRequest(itemId: item, quantity: 1)], deliveryAddress: "2 Veth Lane",
                            idempotencyKey: "partition-\(run)-client-\(call)")))
                    } catch {
                        viaClient.append(.failure(error))
                    }
                }
                try await load.waitUntil(timeout: 60, "every client inside was answered three times during the partition") { records in
                    insideClients.allSatisfy { client in
                        records.filter { $0.client == client && $0.sentAt >= partitioned && $0.answeredAt != nil }.count >= 3
                    }
                }
                try await network.healDatabase()
                healed = clock.now
                try await load.waitUntil(timeout: 60, "every client inside answered ok after the partition healed") { records in
                    insideClients.allSatisfy { client in records.contains { $0.client == client && $0.sentAt >= healed && $0.ok } }
                }
                steady = clock.now
                try await load.waitUntil(timeout: 60, "every client inside had 10 ok replies after the partition healed") { records in
                    insideClients.allSatisfy { client in records.filter { $0.client == client && $0.sentAt >= steady && $0.ok }.count >= 10 }
                }
                proxy.addDelay()
                delayed = clock.now
                try await load.waitUntil(timeout: 60, "every client inside had 10 ok replies with 50 ms added") { records in
                    insideClients.allSatisfy { client in records.filter { $0.client == client && $0.sentAt >= delayed && $0.ok }.count >= 10 }
                }
                finished = clock.now
                records = try await load.finish()
                proxy.removeDelay()
            } catch {
                _ = try? await load.finish()
                throw error
            }

            let hung = records.filter { $0.reply == nil }.map { "\($0.request.useCase) on instance \($0.instance), sent \($0.sentAt - partitioned) after the partition" }
            #expect(hung.isEmpty, "requests without a reply within 10 s: \(hung)")
            // Inside, while partitioned: each request answered within the bound, unavailable (or a
            // write caught committing, outcome unknown); nothing else.
            let duringPartition = records.filter { $0.instance == 1 && $0.sentAt >= partitioned && $0.sentAt < healed }
            #expect(duringPartition.filter { $0.code == "unavailable" }.count >= 3, "instance 1 answered unavailable while partitioned")
            let slowest = duringPartition.compactMap(\.latency).max() ?? .zero
            #expect(slowest <= Self.replyBound, "the slowest reply inside during the partition took \(slowest)")
            for record in duringPartition where !record.ok && record.code != "unavailable" {
                #expect(record.code == "internal" && record.reply?.outcome == "unknown" && record.request.idempotencyKey != nil,
                        "inside, partitioned: \(String(describing: record.reply))")
            }
            // Instance 0 was not touched: only ok.
            for record in records where record.instance == 0 {
                #expect(record.ok, "instance 0: \(String(describing: record.reply))")
            }
            let clientFailures = viaClient.compactMap { result -> String? in
                if case .failure(let error) = result { return "\(error)" }
                return nil
            }
            #expect(clientFailures.isEmpty, "the cluster client's calls during the partition: \(clientFailures)")
            // With 50 ms added: slower, never an error.
            let withDelay = records.filter { $0.instance == 1 && $0.sentAt >= delayed }
            for record in withDelay {
                #expect(record.ok, "inside, 50 ms added: \(String(describing: record.reply))")
            }
            let firstOkAfterHeal = records.filter { $0.instance == 1 && $0.sentAt >= healed && $0.ok }.compactMap(\.answeredAt).min() ?? healed
            #expect(firstOkAfterHeal - healed <= .seconds(20), "instance 1 served again \(firstOkAfterHeal - healed) after the partition healed")
            let rate = { (from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> Double in
                Double(records.filter { $0.instance == 1 && $0.ok && $0.sentAt >= from && $0.sentAt < to }.count) / ((to - from) / .seconds(1))
            }
            let before = rate(steady, delayed), after = rate(delayed, finished)

            // Unknown outcomes settled with their keys; every acknowledged order stored, nothing else.
            var settled: [Reply] = []
            for record in records where record.reply?.outcome == "unknown" {
                let again = try await cluster.send(record.request.useCase, on: 0, record.request.params, idempotencyKey: record.request.idempotencyKey)
                try #require(again.ok == true, "resending an unknown write: \(again)")
                settled.append(again)
            }
            let orders = Set((records.filter(\.ok).compactMap(\.reply) + settled).compactMap { $0.result?["order"]?["id"]?.stringValue })
                .union(viaClient.compactMap { try? $0.get().id })
            let stored = Set(try await database.psql("SELECT id FROM orders WHERE user_id = '\(user)'").split(separator: "\n").map(String.init))
            #expect(stored == orders, "lost: \(orders.subtracting(stored).count), unacknowledged but stored: \(stored.subtracting(orders).count)")
            #expect(try await cluster.stock(of: item, in: restaurant, on: 0) == initialStock - orders.count)
            let keys = try await database.integer("SELECT count(*) FROM idempotency_keys WHERE key LIKE 'partition-\(run)-%'")
            #expect(keys == orders.count, "one bound key per stored order")
            print("""
                network faults: \(records.count) requests; inside during the partition \(duringPartition.count) answered, \
                \(duringPartition.filter { $0.code == "unavailable" }.count) unavailable, slowest \(slowest); \
                served again \(firstOkAfterHeal - healed) after healing; \(viaClient.count) cluster-client calls all ok; \
                inside throughput \(String(format: "%.0f", before))/s, with 50 ms added \(String(format: "%.0f", after))/s
                """)
        }
    }
}

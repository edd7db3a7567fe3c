import Foundation
import RestaurantClient
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

extension StressSuite {
    /// kill -9 of one of three svcd instances on one PostgreSQL database, under load from clients
    /// on all three: no acknowledged write is lost, the survivors keep answering without a gap,
    /// and the killed instance's clients move on and settle their unanswered writes by resending
    /// them with their idempotency keys. Every stored write has exactly one event in the one
    /// sequence, which each survivor publishes whole, and a subscriber that followed the killed
    /// instance goes on from a survivor without a gap or a repeat. Also `svcctl stress` over the
    /// three with a kill -9 of one.
    @Suite(.sharedPostgres)
    struct PostgresClusterKillTests {
        /// The longest a survivor may go without answering around the kill (the contract says
        /// the others do not stall; 2 s is the bound the cluster promises for anything).
        private static let survivorGapBound: Duration = .seconds(2)

        @Test func killDashNineOfOneInstanceUnderLoadLosesNoAcknowledgedWriteAndStallsNoSurvivor() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                try await killUnderLoad(cluster, database, victim: 1)
            }
        }

        private func killUnderLoad(_ cluster: SvcdCluster, _ database: TestDatabase, victim: Int) async throws {
            let clock = ContinuousClock()
            let initialStock = 1_000_000
            let restaurant = try await cluster.newRestaurant(on: 0, "Killed under load")
            let item = try await cluster.newItem(on: 1, in: restaurant, stock: initialStock)
            let user = try await cluster.newUser(on: 2, "kill-load")
            let run = String(UUID().uuidString.prefix(8)).lowercased()
            // Subscribers: one that starts on the victim and fails over, one per survivor alone.
            let order = [victim] + cluster.indices.filter { $0 != victim }
            let quick = RestaurantClientOptions(timeout: .seconds(2), retries: 0, coolDown: .milliseconds(200), maxCoolDown: .seconds(1))
            let movingClient = try RestaurantClient(endpointsFiles: order.map { cluster.dataDirectory($0) }, options: quick)
            let moving = EventTrail.follow(movingClient)
            let staying = try cluster.indices.filter { $0 != victim }.map { instance in
                EventTrail.follow(try RestaurantClient(endpointsFiles: [cluster.dataDirectory(instance)], options: quick))
            }
            defer { Task { for trail in [moving] + staying { await trail.stop() } } }
            // Per instance: a writer of orders, one of reviews and one of registrations, every
            // write with its own key, each moving to the next instance when its own is lost; and
            // a reader that stays, to time the instance's answers.
            let writes: [UseCaseName] = [.placeOrder, .addReview, .registerUser]
            var clients: [ClusterLoad.Client] = []
            for instance in cluster.indices {
                for useCase in writes {
                    clients.append(ClusterLoad.Client(instance: instance, failsOver: true) { sequence in
                        let key = "kill-\(run)-\(instance)-\(useCase.rawValue)-\(sequence)"
                        switch useCase {
                        case .placeOrder:
                            return ClusterLoad.Request(useCase, [
                                "userId": .string(user), "items": [["itemId": .string(item), "quantity": 1]], "deliveryAddress": "9 Kill St",
                            ], idempotencyKey: key)
                        case .addReview:
                            return ClusterLoad.Request(useCase, [
                                "userId": .string(user), "restaurantId": .string(restaurant), "rating": .int(1 + sequence % 5), "text": "kill",
                            ], idempotencyKey: key)
                        default:
                            return ClusterLoad.Request(useCase, ["name": "Kill", "email": .string("\(key)@example.com")], idempotencyKey: key)
                        }
                    })
                }
                clients.append(ClusterLoad.Client(instance: instance) { _ in
                    ClusterLoad.Request(.getRestaurant, ["restaurantId": .string(restaurant)])
                })
            }
            // A survivor's reply later than this counts as none. 10 s, not less: under
            // ThreadSanitizer one durable write on a survivor took over 3 s while the longest gap
            // around the kill was 0.14 s (2026-11-28); a stall is what the gap bound below
            // catches. The clients of the killed instance move after this long without a reply.
            let load = try ClusterLoad.start(cluster, clients: clients, receiveTimeout: 10_000)
            let killedAt: ContinuousClock.Instant
            let records: [ClusterLoad.Record]
            do {
                try await load.waitUntil(timeout: 60, "every client had 10 ok replies") { records in
                    clients.indices.allSatisfy { client in records.filter { $0.client == client && $0.ok }.count >= 10 }
                }
                killedAt = clock.now
                try await cluster.kill(victim)
                let movers = clients.indices.filter { clients[$0].instance == victim && clients[$0].failsOver }
                try await load.waitUntil(timeout: 60, "3 s after the kill, every moved client had 10 ok replies on a survivor") { records in
                    clock.now - killedAt >= .seconds(3) && movers.allSatisfy { client in
                        records.filter { $0.client == client && $0.instance != victim && $0.ok }.count >= 10
                    }
                }
                records = try await load.finish()
            } catch {
                _ = try? await load.finish()
                throw error
            }
            let survivors = cluster.indices.filter { $0 != victim }

            // The survivors answered everything, promptly, without a gap around the kill.
            let onSurvivors = records.filter { survivors.contains($0.instance) }
            #expect(onSurvivors.allSatisfy { $0.ok }, "survivors' replies: \(ReplyTally(onSurvivors.compactMap(\.reply))), unanswered \(onSurvivors.filter { $0.reply == nil }.count)")
            // Every reply came within the load's 10 s receive timeout (a later one counts as none,
            // failing the check above). One durable write may take longer than the gap bound
            // without any stall of the cluster: in a CI run right after a fresh build one took
            // 2.5 s (a slow fsync) while the longest gap around the kill was 0.12 s; the stall the
            // contract rules out is a survivor not answering at all, which the gaps below measure.
            let slowest = onSurvivors.compactMap(\.latency).max() ?? .zero
            var gaps: [Int: Duration] = [:]
            for instance in survivors {
                let window = (killedAt - .seconds(1))...(killedAt + .seconds(3))
                let answers = onSurvivors.filter { $0.instance == instance }.compactMap(\.answeredAt).filter { window.contains($0) }.sorted()
                let edges = [window.lowerBound] + answers + [window.upperBound]
                gaps[instance] = zip(edges, edges.dropFirst()).map { $1 - $0 }.max() ?? .zero
                #expect(gaps[instance]! <= Self.survivorGapBound, "instance \(instance) went \(gaps[instance]!) without answering around the kill")
            }

            // Every request has a final answer: the victim's unanswered ones were resent elsewhere.
            var finals: [String: ClusterLoad.Record] = [:]
            for record in records where record.reply != nil { finals["\(record.client)/\(record.sequence)"] = record }
            let unanswered = records.filter { $0.reply == nil }
            #expect(unanswered.allSatisfy { $0.instance == victim }, "only requests to the killed instance went unanswered")
            let unansweredWrites = unanswered.filter { $0.request.idempotencyKey != nil }
            #expect(unansweredWrites.allSatisfy { finals["\($0.client)/\($0.sequence)"] != nil }, "every unanswered write was answered after a failover")
            let writeFinals = finals.values.filter { $0.request.idempotencyKey != nil }
            #expect(writeFinals.allSatisfy { $0.ok }, "writes: \(ReplyTally(writeFinals.compactMap(\.reply)))")

            // Exactly the acknowledged writes are stored, once each: nothing lost, nothing doubled.
            func ids(_ useCase: UseCaseName, _ path: (JSONValue) -> JSONValue?) -> (requests: Int, ids: Set<String>) {
                let answered = writeFinals.filter { $0.request.useCase == useCase }
                return (answered.count, Set(answered.compactMap { $0.reply?.result.flatMap(path)?.stringValue }))
            }
            let orders = ids(.placeOrder) { $0["order"]?["id"] }
            let reviews = ids(.addReview) { $0["review"]?["id"] }
            let users = ids(.registerUser) { $0["user"]?["id"] }
            #expect(orders.ids.count == orders.requests && reviews.ids.count == reviews.requests && users.ids.count == users.requests,
                    "one stored write per request")
            let reader = survivors[0], other = survivors[1]
            let listedOrders = Set(try await allPages(cluster, .listOrders, on: reader, [("userId", .string(user))], field: "orders")
                .compactMap { $0["id"]?.stringValue })
            #expect(listedOrders == orders.ids, "orders lost: \(orders.ids.subtracting(listedOrders).count), not acknowledged: \(listedOrders.subtracting(orders.ids).count)")
            let listedReviews = Set(try await allPages(cluster, .getReviews, on: other, [("restaurantId", .string(restaurant))], field: "reviews")
                .compactMap { $0["id"]?.stringValue })
            #expect(listedReviews == reviews.ids, "reviews lost: \(reviews.ids.subtracting(listedReviews).count), not acknowledged: \(listedReviews.subtracting(reviews.ids).count)")
            let profiles = try await ClusterRace.run(cluster, .getUserProfile, users.ids.sorted().map { ["userId": .string($0)] }, clients: 4, on: survivors)
            #expect(profiles.counts == ReplyTally(ok: users.ids.count), "registered users found through the survivors: \(profiles.summary)")
            #expect(try await database.integer("SELECT count(*) FROM users WHERE email LIKE 'kill-\(run)-%'") == users.ids.count)
            #expect(try await cluster.stock(of: item, in: restaurant, on: other) == initialStock - orders.ids.count)
            for instance in survivors { #expect(cluster.child(instance).isRunning) }

            // Events: after a marker written last, every subscriber has the same sequence 1…K,
            // with exactly one event per stored write (the three set-up writes first).
            let marker = try await cluster.newUser(on: reader, "kill-marker")
            let expected = 3 + orders.ids.count + reviews.ids.count + users.ids.count
            let followed = try await moving.eventsBefore(key: marker, timeout: 60)
            #expect(followed.count == expected && followed.areConsecutive(), "the moving subscriber: \(followed.count) events for \(expected) writes")
            func keys(_ type: EventType, _ path: (RestaurantEvent) -> String?) -> [String] {
                followed.filter { $0.type == type.rawValue }.compactMap(path)
            }
            #expect(keys(.orderPlaced) { $0.key }.sorted() == orders.ids.sorted(), "one event per stored order")
            #expect(keys(.reviewAdded) { JSONValue.object($0.data)["review"]?["id"]?.stringValue }.sorted() == reviews.ids.sorted(), "one per stored review")
            #expect(Set(keys(.userRegistered) { $0.key }).isSuperset(of: users.ids) && keys(.userRegistered) { $0.key }.count == users.ids.count + 1, "one per stored user")
            for (position, trail) in staying.enumerated() {
                let seen = try await trail.eventsBefore(key: marker, timeout: 60)
                #expect(seen.map(\.json) == followed.map(\.json), "survivor \(survivors[position])'s subscriber saw the same sequence")
            }
            for instance in survivors {
                var published = 0
                let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                while published < expected, ContinuousClock.now < deadline {
                    let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--json", "--data-dir", cluster.dataDirectory(instance)], timeout: 30)
                    published = try JSONParser.parse(stats.stdout)["events"]?["lastPublishedSeq"]?.intValue ?? 0
                }
                #expect(published >= expected, "instance \(instance) published every event of the cluster: last \(published)")
            }
            for trail in [moving] + staying { await trail.stop() }

            print("""
                kill -9 under load: \(writeFinals.count) writes acknowledged (\(orders.requests) orders, \(reviews.requests) reviews, \
                \(users.requests) users), \(unansweredWrites.count) unanswered by the killed instance and resent with their keys; \
                survivors' slowest reply \(slowest), longest gap around the kill \(gaps.values.max() ?? .zero)
                """)
        }

        @Test func svcctlStressOverThreeInstancesStaysCleanThroughKillDashNineOfOne() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                // A rate a debug cluster keeps up with on a shared two-core machine, and a reply
                // timeout well above the slowest healthy answer there (a late answer is an answer).
                let clients = 9
                // Refusals and timeouts around the kill are what the test provokes, not a load
                // beyond the cluster: any share of them may still be clean.
                let arguments = ["stress", "--json", "--duration", "6s", "--rate", "120", "--clients", String(clients), "--seed", "51", "--timeout", "15", "--max-refused-share", "1"]
                    + cluster.indices.flatMap { ["--data-dir", cluster.dataDirectory($0)] }
                async let run = runTool(try ExecutableLocator.svcctl(), arguments, timeout: 180)
                // About 2 GetRestaurant requests a second reach instance 0 at this rate: 4 of them
                // say the load (not the set-up) is on, a couple of seconds into the 6.
                try await waitForLoad(onDataDirectory: cluster.dataDirectory(0), requests: 4)
                try await cluster.kill(2)
                let outcome = try await run
                let report = try #require(
                    try? JSONParser.parse(outcome.stdout),
                    "no JSON report (exit \(outcome.status.map(String.init) ?? "none: killed")); stdout:\n\(outcome.stdout.prefix(2000))\nstderr:\n\(outcome.stderr)")
                #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)\nreport:\n\(outcome.stdout.prefix(6000))\nsvcd:\n\(cluster.stderrLines(containing: "error"))")
                #expect(report["clean"] == true)
                #expect(report["violations"]?.intValue == 0, "\(report["invariants"]?.description ?? "no invariants")")
                let load = try #require(report["load"])
                #expect(load["unexpectedErrors"]?.intValue == 0)
                let sent = try #require(load["sent"]?.intValue)
                #expect(load["answered"]?.intValue.map { $0 + (load["timeouts"]?.intValue ?? 0) } == sent)
                let instances = try #require(report["instances"]?.arrayValue)
                try #require(instances.count == 3)
                #expect(instances[2]["down"]?.stringValue != nil, "\(instances[2])")
                // Its own clients moved away (and any that had come to it before the kill).
                #expect((instances[2]["clientsMovedAway"]?.intValue ?? 0) >= clients / 3, "\(instances[2])")
                #expect(instances.compactMap { $0["clientsMovedAway"]?.intValue }.reduce(0, +) == load["failovers"]?.intValue)
                // The survivors answered every request within the timeout. (On a starved machine
                // one may answer `unavailable` after waiting 1.5 s for a database connection, and
                // svcctl then moves its clients too: that is load shedding, not a stall.)
                for survivor in [0, 1] {
                    #expect(instances[survivor]["timeouts"]?.intValue == 0, "\(instances[survivor])")
                    #expect(instances[survivor]["unexpectedErrors"]?.intValue == 0, "\(instances[survivor])")
                }
                let unknown = try #require(report["unknownOutcomes"])
                #expect(unknown["enabled"] == true)
                #expect(unknown["idempotencyKeysHonoured"] == true, "\(unknown)")
                let unknownAfterLoad = try #require(unknown["unknownAfterLoad"]?.intValue)
                #expect(unknown["resent"]?.intValue == unknownAfterLoad)
                #expect(unknown["resolved"]?.intValue == unknownAfterLoad, "\(unknown)")
                #expect(unknown["stillUnknown"]?.intValue == 0, "\(unknown)")
                #expect(unknown["newWritesAcknowledged"]?.intValue == 0, "\(unknown)")
                #expect(unknown["unexpectedErrors"]?.intValue == 0, "\(unknown)")
                print("""
                    svcctl stress over three, one killed: sent \(sent), timeouts \(load["timeouts"]?.intValue ?? -1), \
                    failovers \(load["failovers"]?.intValue ?? -1), transient \(load["transientRefusals"]?.intValue ?? -1); \
                    unknown after the load \(unknownAfterLoad), resolved \(unknown["resolved"]?.intValue ?? -1)
                    """)
            }
        }
    }
}

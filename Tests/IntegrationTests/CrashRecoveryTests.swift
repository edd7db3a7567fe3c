import Foundation
import Persistence
import SeededRandom
import Synchronization
import Testing
import SvcdTestSupport
import WireContract
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// kill -9 under write load, restart on the same data directory, and check that every write
/// that was answered `ok` is still there, derived values (rating, stock) agree with the stored
/// rows, the event log holds exactly one event per stored change without a gap, and SQLite's
/// integrity check passes. Cycles accumulate: each restart re-checks every write acknowledged in
/// every earlier cycle. `CRASH_CYCLES=N` runs more cycles.
@Suite(.serialized) struct CrashRecoveryTests {
    static let cycles = ProcessInfo.processInfo.environment["CRASH_CYCLES"].flatMap(Int.init) ?? 5
    static let writers = 4
    static let initialStock = 100_000

    @Test func everyAcknowledgedWriteSurvivesKillDashNine() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crashtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let dataDirectory = root.appendingPathComponent("data").path
        var ledger = Ledger()
        var generator = SplitMix64(seed: 0xC0FFEE)

        for cycle in 1...Self.cycles {
            let child = try await SvcdChild.launch(seed: cycle == 1, dataDirectory: dataDirectory)
            do {
                let endpoints = try await child.endpoints()
                try await verify(ledger, endpoints, after: "restart before cycle \(cycle)")
                let setup = try await prepare(cycle: cycle, endpoints, &ledger)
                // Kill after a varying number of acknowledgements, mid-stream.
                let target = 150 + Int(generator.next() % 250)
                let acked = try await writeUntilKilled(cycle: cycle, setup: setup, endpoints: endpoints, child: child, killAfter: target)
                ledger.add(acked)
                #expect(acked.count >= target, "cycle \(cycle): only \(acked.count) writes acknowledged before the kill")
            } catch {
                await child.stop()
                throw error
            }
            #expect(child.exitStatus == nil, "svcd was killed by the signal, it did not exit")
            await child.stop()
            try await checkIntegrity(dataDirectory)
        }

        let last = try await SvcdChild.launch(seed: false, dataDirectory: dataDirectory)
        do {
            try await verify(ledger, try await last.endpoints(), after: "final restart")
        } catch {
            await last.stop()
            throw error
        }
        await last.stop()
        #expect(last.exitStatus == 0, "svcd exits 0 on SIGTERM; stderr:\n\(last.stderrText)")
        try await checkIntegrity(dataDirectory)
        #expect(ledger.total > Self.cycles * 150)
    }

    // MARK: - Load

    /// Per cycle: a restaurant to review, an item to order, one user per writer.
    private func prepare(cycle: Int, _ endpoints: EndpointsFile, _ ledger: inout Ledger) async throws -> CycleSetup {
        let restaurant = try await ok(endpoints, .createRestaurant, [
            "name": .string("Crash Cafe \(cycle)"), "cuisine": "Test", "priceLevel": 2, "address": "9 Crash St",
            "latitude": 10, "longitude": 20,
        ])
        let restaurantId = try #require(restaurant["restaurant"]?["id"]?.stringValue)
        let item = try await ok(endpoints, .addMenuItem, [
            "restaurantId": .string(restaurantId), "name": "Crash Soup", "priceCents": 1500, "currency": "USD",
            "stock": .int(Self.initialStock),
        ])
        let itemId = try #require(item["item"]?["id"]?.stringValue)
        var users: [String] = []
        for writer in 0..<Self.writers {
            let email = "crash-setup-\(cycle)-\(writer)-\(UUID().uuidString.prefix(8))@example.com"
            let user = try await ok(endpoints, .registerUser, ["name": "Crash Writer", "email": .string(email)])
            let userId = try #require(user["user"]?["id"]?.stringValue)
            users.append(userId)
            ledger.users[userId] = email
        }
        ledger.reviewedRestaurants.append(restaurantId)
        ledger.items[itemId] = restaurantId
        return CycleSetup(restaurantId: restaurantId, itemId: itemId, users: users)
    }

    /// Runs every writer against four write endpoints until svcd is SIGKILLed (after
    /// `killAfter` acknowledgements); returns what was acknowledged.
    private func writeUntilKilled(cycle: Int, setup: CycleSetup, endpoints: EndpointsFile, child: SvcdChild, killAfter: Int) async throws -> Acknowledged {
        let progress = AckCounter()
        let addresses = try [.registerUser, .saveFavoriteRestaurant, .addReview, .placeOrder].map { ($0, try endpoints.address($0)) }
        return try await withThrowingTaskGroup(of: Acknowledged.self) { group in
            for writer in 0..<Self.writers {
                for (useCase, address) in addresses {
                    group.addTask {
                        try await onThread {
                            try WriteStream(useCase: useCase, address: address, cycle: cycle, writer: writer, setup: setup).run(progress: progress)
                        }
                    }
                }
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(60))
            while progress.value.load(ordering: .relaxed) < killAfter, clock.now < deadline, child.isRunning {
                try await Task.sleep(for: .milliseconds(2))
            }
            child.send(signal: SIGKILL)
            #expect(await child.waitForExit(timeout: 10), "svcd is gone after SIGKILL")
            var all = Acknowledged()
            for try await acked in group { all.merge(acked) }
            return all
        }
    }

    // MARK: - Verification

    private func verify(_ ledger: Ledger, _ endpoints: EndpointsFile, after moment: String) async throws {
        guard ledger.total > 0 else { return }
        // Users: every acknowledged registration, with its e-mail address.
        let profiles = try await callAll(endpoints, .getUserProfile, ledger.users.keys.map { ["userId": .string($0)] })
        for (userId, email) in ledger.users {
            let profile = profiles[userId]
            #expect(profile?["profile"]?["email"]?.stringValue == email, "\(moment): user \(userId) (\(email)) lost: \(String(describing: profile))")
        }
        // Favorites: every acknowledged save, per user.
        let favoriteUsers = Set(ledger.favorites.map(\.user))
        let favorites = try await callAll(endpoints, .getFavoriteRestaurants, favoriteUsers.map { ["userId": .string($0)] })
        for user in favoriteUsers {
            let stored = Set((favorites[user]?["restaurants"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            let expected = Set(ledger.favorites.filter { $0.user == user }.map(\.restaurant))
            #expect(expected.isSubset(of: stored), "\(moment): favorites of \(user) lost: \(expected.subtracting(stored).sorted())")
            #expect(stored.count <= 100)
        }
        // Reviews: every acknowledged review, and the rating is the mean of the stored ones.
        for restaurantId in ledger.reviewedRestaurants {
            let reviews = try await allPages(endpoints, .getReviews, ["restaurantId": .string(restaurantId)], field: "reviews")
            let ids = Set(reviews.compactMap { $0["id"]?.stringValue })
            let expected = Set(ledger.reviews.filter { $0.restaurant == restaurantId }.map(\.id))
            #expect(expected.isSubset(of: ids), "\(moment): reviews of \(restaurantId) lost: \(expected.subtracting(ids).count)")
            let restaurant = try #require(try await ok(endpoints, .getRestaurant, ["restaurantId": .string(restaurantId)])["restaurant"])
            #expect(restaurant["reviewCount"]?.intValue == reviews.count, "\(moment): reviewCount agrees with the stored reviews")
            let total = reviews.compactMap { $0["rating"]?.intValue }.reduce(0, +)
            let mean = reviews.isEmpty ? 0 : Double(total) / Double(reviews.count)
            #expect(restaurant["rating"]?.doubleValue == mean, "\(moment): rating is the mean of the stored reviews")
        }
        // Orders: every acknowledged order; stock left + quantities of stored orders = initial stock.
        var orderedByItem: [String: Int] = [:]
        var storedOrders: Set<String> = []
        for user in Set(ledger.users.keys) {
            for order in try await allPages(endpoints, .listOrders, ["userId": .string(user)], field: "orders") {
                if let id = order["id"]?.stringValue { storedOrders.insert(id) }
                for line in order["items"]?.arrayValue ?? [] {
                    orderedByItem[line["itemId"]?.stringValue ?? "?", default: 0] += line["quantity"]?.intValue ?? 0
                }
            }
        }
        let lostOrders = Set(ledger.orders).subtracting(storedOrders)
        #expect(lostOrders.isEmpty, "\(moment): \(lostOrders.count) acknowledged orders lost")
        try await verifyEvents(ledger, endpoints, storedOrders: storedOrders, after: moment)
        for (itemId, restaurantId) in ledger.items {
            let menu = try await ok(endpoints, .getMenu, ["restaurantId": .string(restaurantId)])
            let stock = menu["items"]?.arrayValue?.first { $0["id"]?.stringValue == itemId }?["stock"]?.intValue
            #expect(stock.map { $0 + orderedByItem[itemId, default: 0] } == Self.initialStock, "\(moment): stock of \(itemId) is conserved")
        }
    }

    /// The event log after a kill: seqs 1…lastSeq without a gap (seeding appended nothing, and
    /// nothing was pruned), exactly one event for every acknowledged write, and as many order and
    /// review events as the store holds orders and reviews (a write committed just before the
    /// kill, whose reply was lost, has its event too: it is in the same transaction).
    private func verifyEvents(_ ledger: Ledger, _ endpoints: EndpointsFile, storedOrders: Set<String>, after moment: String) async throws {
        let address = try #require(endpoints.eventLog, "endpoints.json names the event log")
        var events: [JSONValue] = []
        var lastSeq = 0
        repeat {
            let reply = try await call(address, request(id: "log", params: ["after": .int(events.count), "limit": 1000]))
            try #require(reply.ok == true, "\(moment): the event log answered \(reply)")
            let page = reply.result?["events"]?.arrayValue ?? []
            lastSeq = reply.result?["lastSeq"]?.intValue ?? -1
            events += page
            if page.isEmpty { break }
        } while events.count < lastSeq
        #expect(events.enumerated().allSatisfy { $0.element["seq"]?.intValue == $0.offset + 1 } && events.count == lastSeq, "\(moment): seqs 1…\(lastSeq) without a gap")
        func count(_ type: String, where matches: (JSONValue) -> Bool) -> Int {
            events.filter { $0["type"]?.stringValue == type && matches($0) }.count
        }
        for user in ledger.users.keys {
            #expect(count("UserRegistered") { $0["key"]?.stringValue == user } == 1, "\(moment): one event for user \(user)")
        }
        for favorite in Set(ledger.favorites) {
            let saved = count("FavoriteSaved") { $0["key"]?.stringValue == favorite.user && $0["data"]?["restaurantId"]?.stringValue == favorite.restaurant }
            #expect(saved == 1, "\(moment): one event for the favourite \(favorite)")
        }
        for review in ledger.reviews {
            #expect(count("ReviewAdded") { $0["data"]?["review"]?["id"]?.stringValue == review.id } == 1, "\(moment): one event for review \(review.id)")
        }
        let orderEvents = Set(events.filter { $0["type"]?.stringValue == "OrderPlaced" }.compactMap { $0["key"]?.stringValue })
        #expect(Set(ledger.orders).isSubset(of: orderEvents), "\(moment): every acknowledged order has its event")
        #expect(orderEvents == storedOrders, "\(moment): one event per stored order")
        #expect(count("OrderPlaced") { _ in true } == orderEvents.count, "\(moment): no order has two events")
    }

    private func checkIntegrity(_ dataDirectory: String) async throws {
        let store = try SQLiteStore(path: dataDirectory + "/store.sqlite", events: nil)
        do {
            try await store.checkIntegrity()
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    // MARK: - Calls

    private func ok(_ endpoints: EndpointsFile, _ useCase: UseCaseName, _ params: JSONValue) async throws -> JSONValue {
        let reply = try await call(try endpoints.address(useCase), request(id: useCase.rawValue, params: params))
        try #require(reply.ok == true, "\(useCase) failed: \(reply)")
        return try #require(reply.result)
    }

    /// Every page of a listing, following `nextCursor`.
    private func allPages(_ endpoints: EndpointsFile, _ useCase: UseCaseName, _ params: JSONValue, field: String) async throws -> [JSONValue] {
        var rows: [JSONValue] = []
        var cursor: String?
        repeat {
            var members = (params.objectValue.map { Array($0) } ?? []).map { ($0.key, $0.value) }
            members.append(("limit", 500))
            if let cursor { members.append(("cursor", .string(cursor))) }
            let page = try await ok(endpoints, useCase, .object(JSONObject(members)))
            rows += page[field]?.arrayValue ?? []
            cursor = page["nextCursor"]?.stringValue
        } while cursor != nil
        return rows
    }

    /// One request per params on one pipelined DEALER, at most `window` in flight (the endpoint
    /// answers `overloaded` beyond its in-flight bound, which a growing ledger would reach);
    /// results keyed by the first param's value. A reply that is not ok is recorded as an issue.
    private func callAll(_ endpoints: EndpointsFile, _ useCase: UseCaseName, _ paramsList: [JSONValue], window: Int = 256) async throws -> [String: JSONValue] {
        let address = try endpoints.address(useCase)
        let replies = try await withClient(.dealer, address, receiveTimeout: 10_000) { client -> [Reply] in
            var replies: [Reply] = []
            var sent = 0
            while sent < min(window, paramsList.count) {
                try client.send(body: request(id: String(sent), params: paramsList[sent]))
                sent += 1
            }
            while replies.count < paramsList.count, let reply = try client.receiveReply() {
                replies.append(reply)
                if sent < paramsList.count {
                    try client.send(body: request(id: String(sent), params: paramsList[sent]))
                    sent += 1
                }
            }
            return replies
        }
        #expect(replies.count == paramsList.count, "\(useCase): every request answered")
        var results: [String: JSONValue] = [:]
        for reply in replies {
            guard let index = reply.id?.stringValue.flatMap(Int.init), paramsList.indices.contains(index),
                  let key = paramsList[index].objectValue?.first?.value.stringValue else { continue }
            if reply.ok == true {
                results[key] = reply.result
            } else {
                Issue.record("\(useCase) for \(key) answered \(reply)")
            }
        }
        return results
    }
}

/// Acknowledgements so far, across writer threads.
private final class AckCounter: Sendable {
    let value = Atomic<Int>(0)
}

/// What one cycle's setup created.
private struct CycleSetup: Sendable {
    let restaurantId: String
    let itemId: String
    let users: [String]
}

/// Writes acknowledged `ok` (so they must be durable).
private struct Acknowledged: Sendable {
    var users: [String: String] = [:]
    var favorites: [Favorite] = []
    var reviews: [ReviewRef] = []
    var orders: [String] = []
    var count: Int { users.count + favorites.count + reviews.count + orders.count }

    mutating func merge(_ other: Acknowledged) {
        users.merge(other.users) { first, _ in first }
        favorites += other.favorites
        reviews += other.reviews
        orders += other.orders
    }
}

private struct Favorite: Sendable, Hashable {
    let user: String
    let restaurant: String
}

private struct ReviewRef: Sendable, Hashable {
    let restaurant: String
    let id: String
}

/// Everything acknowledged across all cycles, plus the per-cycle fixtures.
private struct Ledger {
    var users: [String: String] = [:]
    var favorites: [Favorite] = []
    var reviews: [ReviewRef] = []
    var orders: [String] = []
    var reviewedRestaurants: [String] = []
    var items: [String: String] = [:]
    var total: Int { users.count + favorites.count + reviews.count + orders.count }

    mutating func add(_ acked: Acknowledged) {
        users.merge(acked.users) { first, _ in first }
        favorites += acked.favorites
        reviews += acked.reviews
        orders += acked.orders
    }
}

/// One writer's stream of one use case on its own DEALER: keeps a window of requests in
/// flight until the service stops answering (it was killed).
private struct WriteStream {
    let useCase: UseCaseName
    let address: String
    let cycle: Int
    let writer: Int
    let setup: CycleSetup
    let window = 8

    func run(progress: AckCounter) throws -> Acknowledged {
        let client = try WireClient(.dealer, connectTo: address, receiveTimeout: 1500)
        defer { client.close() }
        var acked = Acknowledged()
        var outstanding: [String: JSONValue] = [:]
        var sequence = 0
        let user = setup.users[writer]
        while true {
            while outstanding.count < window {
                sequence += 1
                let id = "\(useCase)-\(cycle)-\(writer)-\(sequence)"
                let params = parameters(sequence: sequence, user: user, id: id)
                outstanding[id] = params
                try client.send(body: request(id: id, params: params))
            }
            // A receive timeout means the service is gone: what is still outstanding was never
            // acknowledged and may or may not have been written.
            guard let reply = try client.receiveReply() else { return acked }
            guard let id = reply.id?.stringValue, let params = outstanding.removeValue(forKey: id) else { continue }
            guard reply.ok == true, let result = reply.result else { continue }
            record(result, params: params, user: user, into: &acked)
            progress.value.add(1, ordering: .relaxed)
        }
    }

    private func parameters(sequence: Int, user: String, id: String) -> JSONValue {
        switch useCase {
        case .registerUser:
            return ["name": "Crash User", "email": .string("\(id.lowercased())-\(UUID().uuidString.prefix(6))@example.com")]
        case .saveFavoriteRestaurant:
            // Sample restaurants r-000001…r-000300; past the cap of 100 the saves are refused.
            let restaurant = String(format: "r-%06d", 1 + (sequence * 7 + writer * 13) % 300)
            return ["userId": .string(user), "restaurantId": .string(restaurant)]
        case .addReview:
            return ["userId": .string(user), "restaurantId": .string(setup.restaurantId), "rating": .int(1 + sequence % 5), "text": "crash test"]
        default:
            return [
                "userId": .string(user), "items": [["itemId": .string(setup.itemId), "quantity": .int(1 + sequence % 3)]],
                "deliveryAddress": "1 Crash Rd",
            ]
        }
    }

    private func record(_ result: JSONValue, params: JSONValue, user: String, into acked: inout Acknowledged) {
        switch useCase {
        case .registerUser:
            if let id = result["user"]?["id"]?.stringValue, let email = params["email"]?.stringValue { acked.users[id] = email }
        case .saveFavoriteRestaurant:
            if let restaurant = params["restaurantId"]?.stringValue { acked.favorites.append(Favorite(user: user, restaurant: restaurant)) }
        case .addReview:
            if let id = result["review"]?["id"]?.stringValue { acked.reviews.append(ReviewRef(restaurant: setup.restaurantId, id: id)) }
        default:
            if let id = result["order"]?["id"]?.stringValue { acked.orders.append(id) }
        }
    }
}

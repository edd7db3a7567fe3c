import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension PostgresClusterSuite {
    /// Once any instance has acknowledged a write, a read sent afterwards to any other instance
    /// reflects it: hundreds of write-here, read-there pairs from several clients at once, each
    /// read sent the moment its write's `ok` arrived, over every ordered pair of instances.
    @Suite
    struct ClusterReadAfterWriteTests {
        /// Concurrent clients, each with its own user, restaurant and item.
        private static let workers = 6
        /// Pairs per client: every kind of pair on every ordered pair of instances, twice.
        private static let pairsPerWorker = 48

        @Test func aWriteAcknowledgedByOneInstanceIsSeenByTheNextReadOnAnother() async throws {
            let database = try await SharedPostgres.newDatabase()
            try await withSvcdCluster(databaseURL: database.url) { cluster in
                var fixtures: [PairFixture] = []
                for worker in 0..<Self.workers {
                    let restaurant = try await cluster.newRestaurant(on: worker % 3, "Read after write \(worker)")
                    fixtures.append(PairFixture(
                        worker: worker, user: try await cluster.newUser(on: (worker + 1) % 3, "raw\(worker)"), restaurant: restaurant,
                        item: try await cluster.newItem(on: (worker + 2) % 3, in: restaurant, stock: 1_000_000), stock: 1_000_000))
                }
                let outcomes = try await withThrowingTaskGroup(of: PairOutcome.self) { group in
                    for fixture in fixtures {
                        group.addTask {
                            try await withClusterSession(cluster) { session in
                                try PairRunner(fixture: fixture, session: session).run(pairs: Self.pairsPerWorker)
                            }
                        }
                    }
                    var all = PairOutcome()
                    for try await outcome in group { all.merge(outcome) }
                    return all
                }
                #expect(outcomes.pairs == Self.workers * Self.pairsPerWorker)
                #expect(outcomes.failedWrites.isEmpty, "writes that were not acknowledged: \(outcomes.failedWrites.prefix(5))")
                #expect(outcomes.stale.isEmpty, "\(outcomes.stale.count) stale reads of \(outcomes.pairs), e.g. \(outcomes.stale.prefix(5))")
                // Every kind and every ordered pair of instances was exercised.
                #expect(Set(outcomes.kinds.keys) == Set(PairRunner.Kind.allCases.map(\.rawValue)), "\(outcomes.kinds)")
                #expect(outcomes.routes.count == 6, "\(outcomes.routes)")
            }
        }
    }
}

/// What one client of the read-after-write test owns.
private struct PairFixture: Sendable {
    let worker: Int
    let user: String
    let restaurant: String
    let item: String
    let stock: Int
}

/// What the pairs showed: how many ran, which reads were stale, which writes failed.
private struct PairOutcome: Sendable {
    var pairs = 0
    var stale: [String] = []
    var failedWrites: [String] = []
    var kinds: [String: Int] = [:]
    var routes: [String: Int] = [:]

    mutating func merge(_ other: PairOutcome) {
        pairs += other.pairs
        stale += other.stale
        failedWrites += other.failedWrites
        kinds.merge(other.kinds, uniquingKeysWith: +)
        routes.merge(other.routes, uniquingKeysWith: +)
    }
}

/// One client's pairs, on its own thread: a write on one instance, then, once its `ok` arrived,
/// a read on another that must show it.
private struct PairRunner {
    /// The kinds of pair, in the order they take turns.
    enum Kind: String, CaseIterable {
        case registerThenProfile, createThenGet, saveFavoriteThenIsFavorite, reviewThenReviewCount
        case restockThenMenuStock, orderThenGetOrder, renameThenProfile, removeFavoriteThenIsFavorite
    }

    /// Every ordered pair of distinct instances.
    private static let routes = [(0, 1), (1, 2), (2, 0), (0, 2), (1, 0), (2, 1)]

    let fixture: PairFixture
    let session: ClusterSession

    func run(pairs: Int) throws -> PairOutcome {
        var outcome = PairOutcome()
        var state = State(stock: fixture.stock)
        for step in 0..<pairs {
            let kind = Kind.allCases[step % Kind.allCases.count]
            // Routes turn more slowly than kinds, so each kind meets every route.
            let (writer, reader) = Self.routes[(step / Kind.allCases.count + fixture.worker) % Self.routes.count]
            outcome.pairs += 1
            outcome.kinds[kind.rawValue, default: 0] += 1
            outcome.routes["\(writer)→\(reader)", default: 0] += 1
            let label = "worker \(fixture.worker) pair \(step) \(kind.rawValue) \(writer)→\(reader)"
            do {
                if let stale = try pair(kind, writer: writer, reader: reader, state: &state) {
                    outcome.stale.append("\(label): \(stale)")
                }
            } catch let failure as WriteFailed {
                outcome.failedWrites.append("\(label): \(failure.reply)")
            }
        }
        return outcome
    }

    /// What a client knows it wrote so far.
    private struct State {
        var stock: Int
        var reviews = 0
        var lastRestaurant: String?
    }

    /// A write that was not acknowledged (or had no reply).
    private struct WriteFailed: Error {
        let reply: String
    }

    /// Runs one pair; returns a description of what was stale, `nil` when the read was current.
    private func pair(_ kind: Kind, writer: Int, reader: Int, state: inout State) throws -> String? {
        let user = JSONValue.string(fixture.user)
        switch kind {
        case .registerThenProfile:
            let email = uniqueEmail("raw\(fixture.worker)")
            let id = try write(.registerUser, writer, ["name": "Pair", "email": .string(email)])["user"]?["id"]?.stringValue ?? "?"
            let read = try self.read(.getUserProfile, reader, ["userId": .string(id)])
            return read.result?["profile"]?["email"]?.stringValue == email ? nil : "profile \(read)"
        case .createThenGet:
            let name = "Pair \(UUID().uuidString.prefix(8))"
            let id = try write(.createRestaurant, writer, [
                "name": .string(name), "cuisine": "Pairs", "priceLevel": 1, "address": "2 Pair St", "latitude": 1, "longitude": 2,
            ])["restaurant"]?["id"]?.stringValue ?? "?"
            state.lastRestaurant = id
            let read = try self.read(.getRestaurant, reader, ["restaurantId": .string(id)])
            return read.result?["restaurant"]?["name"]?.stringValue == name ? nil : "restaurant \(read)"
        case .saveFavoriteThenIsFavorite, .removeFavoriteThenIsFavorite:
            let saving = kind == .saveFavoriteThenIsFavorite
            let restaurant = JSONValue.string(state.lastRestaurant ?? fixture.restaurant)
            _ = try write(saving ? .saveFavoriteRestaurant : .removeFavoriteRestaurant, writer, ["userId": user, "restaurantId": restaurant])
            let read = try self.read(.getRestaurant, reader, ["restaurantId": restaurant, "userId": user])
            return read.result?["restaurant"]?["isFavorite"]?.boolValue == saving ? nil : "isFavorite should be \(saving): \(read)"
        case .reviewThenReviewCount:
            _ = try write(.addReview, writer, ["userId": user, "restaurantId": .string(fixture.restaurant), "rating": 4, "text": "pair"])
            state.reviews += 1
            let read = try self.read(.getRestaurant, reader, ["restaurantId": .string(fixture.restaurant)])
            let count = read.result?["restaurant"]?["reviewCount"]?.intValue
            return count == state.reviews ? nil : "reviewCount \(String(describing: count)), expected \(state.reviews)"
        case .restockThenMenuStock:
            _ = try write(.restockMenuItem, writer, ["itemId": .string(fixture.item), "quantity": 3])
            state.stock += 3
            return try stockIsCurrent(reader, state.stock)
        case .orderThenGetOrder:
            let order = try write(.placeOrder, writer, [
                "userId": user, "items": [["itemId": .string(fixture.item), "quantity": 2]], "deliveryAddress": "3 Pair St",
            ])
            state.stock -= 2
            let id = order["order"]?["id"]?.stringValue ?? "?"
            let read = try self.read(.getOrder, reader, ["orderId": .string(id)])
            guard read.result?["order"]?["id"]?.stringValue == id else { return "order \(id): \(read)" }
            return try stockIsCurrent(reader, state.stock)
        case .renameThenProfile:
            let name = "Renamed \(UUID().uuidString.prefix(8))"
            _ = try write(.updateUserProfile, writer, ["userId": user, "name": .string(name)])
            let read = try self.read(.getUserProfile, reader, ["userId": user])
            return read.result?["profile"]?["name"]?.stringValue == name ? nil : "name should be \(name): \(read)"
        }
    }

    private func stockIsCurrent(_ reader: Int, _ expected: Int) throws -> String? {
        let menu = try read(.getMenu, reader, ["restaurantId": .string(fixture.restaurant)])
        let stock = menu.result?["items"]?.arrayValue?.first { $0["id"]?.stringValue == fixture.item }?["stock"]?.intValue
        return stock == expected ? nil : "stock \(String(describing: stock)), expected \(expected)"
    }

    private func write(_ useCase: UseCaseName, _ instance: Int, _ params: JSONValue) throws -> JSONValue {
        guard let reply = try session.call(useCase, on: instance, params) else { throw WriteFailed(reply: "\(useCase): no reply") }
        guard reply.ok == true, let result = reply.result else { throw WriteFailed(reply: "\(useCase): \(reply)") }
        return result
    }

    /// A read; a missing reply counts as stale (it is reported with the pair).
    private func read(_ useCase: UseCaseName, _ instance: Int, _ params: JSONValue) throws -> Reply {
        try session.call(useCase, on: instance, params) ?? Reply(frames: [Array("no reply".utf8)])
    }
}

import Domain
import Foundation
@testable import Persistence
import RestaurantTesting
import SvcdTestSupport
import Testing

/// PlaceOrder on PostgreSQL goes as one statement when its items' stock is as this instance last
/// saw it, and otherwise writes nothing that way and goes the long way: the stock it takes, the
/// orders it stores and the stock its events report are exact either way.
@Suite(.postgres) struct PostgresOrderPlacementTests {
    @Test func anOrderOfItemsJustReadGoesAsOneStatementAndItsEventHasTheStockLeft() async throws {
        let place = try await Placement(stock: [10, 5])
        _ = try await place.menu.items(ids: place.items)
        #expect(try await place.order("o1", [3, 2]) == .placed(place.made("o1", [3, 2])))
        #expect(place.store.stockHints.expectations == (met: 1, missed: 0), "the items just read had the stock expected")
        #expect(try await place.stock() == [7, 3])
        #expect(try await place.eventStock("o1") == [7, 3])
        // The hints follow the instance's own orders: the next order needs no read.
        #expect(try await place.order("o2", [7, 0]) == .placed(place.made("o2", [7, 0])))
        #expect(place.store.stockHints.expectations == (met: 2, missed: 0))
        #expect(try await place.stock() == [0, 3])
        #expect(try await place.eventStock("o2") == [0])
        await place.store.close()
    }

    @Test func anOrderWhoseStockChangedElsewhereWritesNothingAsExpectedAndGoesTheLongWay() async throws {
        let place = try await Placement(stock: [10])
        _ = try await place.menu.items(ids: place.items)
        // Another instance sells 6 meanwhile: the hint (10) is stale.
        try await place.setStock(4)
        #expect(try await place.order("o1", [3]) == .placed(place.made("o1", [3])))
        #expect(place.store.stockHints.expectations == (met: 0, missed: 1))
        #expect(try await place.stock() == [1], "taken once, by the long way")
        #expect(try await place.eventStock("o1") == [1])
        #expect(try await place.orderCount() == 1)
        // The long way taught the hint 1; the stock is 2 now, and an order of 3 is too much by
        // the hint: the long way decides, with the stock there really is.
        try await place.setStock(2)
        #expect(try await place.order("o2", [3]) == .insufficientStock(itemId: MenuItemID("m0"), requested: 3, available: 2))
        #expect(place.store.stockHints.expectations == (met: 0, missed: 1), "a hint too low for the order is not tried")
        // The hint is 2 now; the stock drops to 1 elsewhere, and an order of 2 expects 2.
        try await place.setStock(1)
        #expect(try await place.order("o3", [2]) == .insufficientStock(itemId: MenuItemID("m0"), requested: 2, available: 1))
        #expect(place.store.stockHints.expectations == (met: 0, missed: 2))
        #expect(try await place.stock() == [1])
        #expect(try await place.orderCount() == 1, "neither refused order stored anything")
        #expect(try await place.database.psql("SELECT count(*) FROM events WHERE type = 'OrderPlaced'") == "1")
        await place.store.close()
    }

    /// Two instances on one database sell one item, each reading it before ordering as PlaceOrder
    /// does, so each one's hints go stale by the other's orders: exactly the stock is sold, and
    /// the stock left that the events report is every value from the stock minus one down to 0
    /// once each.
    @Test(arguments: [1, 2])
    func ordersRacingOnTwoInstancesSellExactlyTheStockAndTheirEventsCountItDown(quantity: Int) async throws {
        let stock = 120
        let first = try await Placement(stock: [stock])
        let second = try await Placement(sharing: first)
        let attempts = 200
        let outcomes = try await withThrowingTaskGroup(of: OrderPlacementOutcome.self) { group in
            for index in 0..<attempts {
                let place = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    _ = try await place.menu.items(ids: place.items)
                    return try await place.order("o\(index)", [quantity])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let sold = stock / quantity
        #expect(outcomes.filter { if case .placed = $0 { true } else { false } }.count == sold)
        #expect(outcomes.filter { $0 == .insufficientStock(itemId: MenuItemID("m0"), requested: quantity, available: 0) }.count == attempts - sold)
        #expect(try await first.stock() == [0])
        #expect(try await first.orderCount() == sold)
        let reported = try await first.database.psql("SELECT data FROM events WHERE type = 'OrderPlaced'").split(separator: "\n").map { line in
            try Placement.stockLeft(in: String(line))[0]
        }
        #expect(reported.sorted() == Array(stride(from: stock - quantity, through: 0, by: -quantity)).sorted(), "each event reports the stock its own order left")
        let (met, missed) = (first.store.stockHints.expectations.met + second.store.stockHints.expectations.met, first.store.stockHints.expectations.missed + second.store.stockHints.expectations.missed)
        #expect(met >= 1 && met + missed >= sold, "orders went as one statement (\(met)) and some the long way (\(missed))")
        await first.store.close()
        await second.store.close()
    }
}

/// One restaurant with items `m0`, `m1`, … of the given stock and one user, in a new database,
/// and the repositories PlaceOrder uses on one store of it.
private struct Placement: Sendable {
    let database: TestDatabase
    let store: PostgresStore
    let menu: PostgresMenuRepository
    let orders: PostgresOrderRepository
    let items: [MenuItemID]

    init(stock: [Int]) async throws {
        let database = try await TestDatabase.create(on: try #require(PostgresSuite.current))
        try await self.init(database: database, items: stock.count)
        let restaurants = PostgresRestaurantRepository(store: store)
        try await restaurants.insert(Restaurant(
            id: RestaurantID("r"), name: "Kitchen", cuisine: "Test", priceLevel: 1, address: "1 Way", latitude: 0, longitude: 0,
            createdAt: Timestamp(millisecondsSinceEpoch: 0)
        ))
        for (index, stock) in stock.enumerated() {
            try await menu.insert(MenuItem(
                id: MenuItemID("m\(index)"), restaurantId: RestaurantID("r"), name: "Dish \(index)", price: Money(minorUnits: 1000, currency: .usd), stock: stock
            ))
        }
        _ = try await PostgresUserRepository(store: store).insert(
            User(id: UserID("u"), name: "Buyer", email: EmailAddress("u@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))
        )
    }

    /// Another store (another instance) on the database of `other`.
    init(sharing other: Placement) async throws {
        try await self.init(database: other.database, items: other.items.count)
    }

    private init(database: TestDatabase, items: Int) async throws {
        self.database = database
        store = try await PostgresSuite.openStore(url: database.url, connections: 4)
        menu = PostgresMenuRepository(store: store)
        orders = PostgresOrderRepository(store: store)
        self.items = (0..<items).map { MenuItemID("m\($0)") }
    }

    /// The order `id` of `quantities` of the items (a line for each quantity above 0).
    func made(_ id: String, _ quantities: [Int]) -> Order {
        let lines = zip(items, quantities).filter { $0.1 > 0 }.map { Order.Line(itemId: $0.0, quantity: $0.1, unitPriceCents: 1000) }
        return Order(
            id: OrderID(id), userId: UserID("u"), lines: lines, currency: .usd, discountCents: 0, taxCents: 0, deliveryAddress: "2 High St",
            createdAt: Timestamp(millisecondsSinceEpoch: 0)
        )
    }

    /// Places ``made(_:_:)``.
    func order(_ id: String, _ quantities: [Int]) async throws -> OrderPlacementOutcome {
        try await orders.place(made(id, quantities), claim: nil)
    }

    /// Each item's stock as stored.
    func stock() async throws -> [Int] {
        try await database.psql("SELECT stock FROM menu_items ORDER BY id").split(separator: "\n").map { try #require(Int($0)) }
    }

    /// Sets the first item's stock behind the store's back, as another instance's orders would.
    func setStock(_ stock: Int) async throws {
        _ = try await database.psql("UPDATE menu_items SET stock = \(stock) WHERE id = 'm0'")
    }

    /// Orders stored.
    func orderCount() async throws -> Int {
        try await database.integer("SELECT count(*) FROM orders")
    }

    /// The stock left that order `id`'s event reports, in its lines' order.
    func eventStock(_ id: String) async throws -> [Int] {
        try Self.stockLeft(in: try await database.psql("SELECT data FROM events WHERE key = '\(id)'"))
    }

    /// The stock left an order event's data reports, in its lines' order.
    static func stockLeft(in data: String) throws -> [Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        return try #require(object["stock"] as? [[String: Any]]).map { try #require($0["stock"] as? Int) }
    }
}

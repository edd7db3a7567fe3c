import Domain

/// Menu items, their stock and the orders that took it, held in memory: the one owner of
/// everything placing an order touches. ``InMemoryMenuRepository`` and
/// ``InMemoryOrderRepository`` are its two faces.
///
/// Why one actor holds both: placing an order must check every line's stock, take it and store
/// the order as one step, with no restock or other order in between. In memory a step is one
/// method of one actor (it runs without suspending). With stock in one actor and orders in
/// another, an `await` would separate taking the stock from storing the order, and other calls
/// would get in between. Keeping orders in the menu repository's actor would be atomic too, but
/// would leave the orders inside the menu repository; here each repository is a face of the one
/// owner of both.
actor InMemoryInventory {
    private var items: [MenuItemID: MenuItem] = [:]
    private var itemIdsByRestaurant: [RestaurantID: [MenuItemID]] = [:]
    private var orders: [OrderID: Order] = [:]
    // Per user, newest first.
    private var ordersByUser: [UserID: [Order]] = [:]

    private let idempotency: InMemoryIdempotencyRepository

    /// An empty inventory, binding idempotency keys in `idempotency`.
    init(idempotency: InMemoryIdempotencyRepository) {
        self.idempotency = idempotency
    }

    /// Stores a new item.
    func insert(_ item: MenuItem, claim: IdempotencyClaim?) throws {
        try idempotency.perform(claim) {
            items[item.id] = item
            itemIdsByRestaurant[item.restaurantId, default: []].append(item.id)
            return ((), .changed(.menuItem(item), .menuItemAdded(item)))
        }
    }

    /// The item with this id.
    func item(id: MenuItemID) -> MenuItem? {
        items[id]
    }

    /// The items with these ids, in the order given.
    func items(ids: [MenuItemID]) -> [MenuItem] {
        ids.compactMap { items[$0] }
    }

    /// A restaurant's items by name, then id.
    func menu(of restaurantId: RestaurantID) -> [MenuItem] {
        itemIdsByRestaurant[restaurantId, default: []].compactMap { items[$0] }.sorted {
            $0.name.utf8.elementsEqual($1.name.utf8) ? $0.id < $1.id : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
    }

    /// Adds to an item's stock unless that would take it past `maximumStock`.
    func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) throws -> RestockOutcome {
        try idempotency.perform(claim) {
            guard let item = items[itemId] else { return (.notFound, nil) }
            guard item.stock <= maximumStock - quantity else { return (.beyondMaximum(stock: item.stock), nil) }
            let restocked = item.with(stock: item.stock + quantity)
            items[itemId] = restocked
            return (.restocked(restocked), .changed(.menuItem(restocked), .menuItemRestocked(restocked)))
        }
    }

    /// Takes every line's stock and stores the order, or changes nothing.
    func place(_ order: Order, claim: IdempotencyClaim?) throws -> OrderPlacementOutcome {
        try idempotency.perform(claim) {
            let outcome = store(order)
            guard case .placed(let placed) = outcome else { return (outcome, nil) }
            let left = placed.lines.map { ItemStock(itemId: $0.itemId, stock: items[$0.itemId]?.stock ?? 0) }
            return (outcome, .changed(.order(placed), .orderPlaced(placed, stock: left)))
        }
    }

    private func store(_ order: Order) -> OrderPlacementOutcome {
        for line in order.lines {
            guard let item = items[line.itemId] else { return .unknownItem(line.itemId) }
            guard item.canSupply(line.quantity) else {
                return .insufficientStock(itemId: line.itemId, requested: line.quantity, available: item.stock)
            }
        }
        for line in order.lines {
            let item = items[line.itemId]!
            items[line.itemId] = item.with(stock: item.stock - line.quantity)
        }
        orders[order.id] = order
        ordersByUser[order.userId, default: []].insertNewestFirst(order)
        return .placed(order)
    }

    /// Cancels the order as `decide` judges it and returns its lines' stock, or changes nothing.
    func cancel(id: OrderID, claim: IdempotencyClaim?, _ decide: (Order) throws -> Order) throws -> OrderCancellationOutcome {
        try idempotency.perform(claim) {
            guard let stored = orders[id] else { return (.notFound, nil) }
            let decided = try decide(stored)
            guard decided != stored else { return (.stored(stored), .unchanged(.order(stored))) }
            try stored.checkCancellation(decided)
            var after: [ItemStock] = []
            for line in decided.lines {
                guard let item = items[line.itemId] else { throw StoreError.inconsistentWrite("item \(line.itemId) of order \(id) is missing") }
                let returned = item.with(stock: item.stock + line.quantity)
                items[line.itemId] = returned
                after.append(ItemStock(itemId: line.itemId, stock: returned.stock))
            }
            orders[id] = decided
            if let index = ordersByUser[decided.userId]?.firstIndex(where: { $0.id == id }) {
                ordersByUser[decided.userId]![index] = decided
            }
            return (.stored(decided), .changed(.order(decided), .orderCancelled(decided, stock: after)))
        }
    }

    /// The order with this id.
    func order(id: OrderID) -> Order? {
        orders[id]
    }

    /// A user's orders, newest first, after `after`.
    func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) -> [Order] {
        ordersByUser[userId, default: []].page(after: after, limit: limit)
    }
}

/// Stores orders. Placing one takes its stock from the menu items in the same atomic step.
public protocol OrderRepository: Sendable {
    /// Takes every line's quantity from stock and stores the order, all or nothing: when any
    /// item lacks stock (or no longer exists) nothing changes. Binds `claim` to a placed order in
    /// the same step.
    func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome
    /// The order with this id.
    func order(id: OrderID) async throws -> Order?
    /// Up to `limit` of a user's orders, newest first, strictly after `after`.
    func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order]
}

extension OrderRepository {
    /// ``place(_:claim:)`` without an idempotency key.
    public func place(_ order: Order) async throws -> OrderPlacementOutcome {
        try await place(order, claim: nil)
    }
}

/// What an atomic order placement did.
public enum OrderPlacementOutcome: Sendable, Hashable {
    /// Stock was taken and the order stored.
    case placed(Order)
    /// Nothing changed: this item has only `available` units.
    case insufficientStock(itemId: MenuItemID, requested: Int, available: Int)
    /// Nothing changed: this item does not exist.
    case unknownItem(MenuItemID)
}

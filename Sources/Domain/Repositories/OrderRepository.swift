/// Stores orders. Placing one takes its stock from the menu items in the same atomic step.
public protocol OrderRepository: Sendable {
    /// Which of its reads (orders) it answers from what it holds in memory, without waiting for a
    /// database: the transport answers a use case whose reads are all held on the thread that
    /// received it.
    var heldReads: Set<RepositoryRead> { get }
    /// Takes every line's quantity from stock and stores the order, all or nothing: when any
    /// item lacks stock (or no longer exists) nothing changes. Binds `claim` to a placed order in
    /// the same step.
    func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome
    /// Reads the order, lets `decide` judge it and, when `decide` answers it cancelled, stores
    /// that and returns every line's quantity to its item's stock, as one atomic step: no other
    /// write to the order or its items comes between, so racing cancellations return the stock
    /// once. Errors thrown by `decide` abort without effect. When `decide` answers the order as
    /// it was read, nothing changes and no event is appended. Binds `claim` to the order
    /// answered in the same step, and appends ``DomainEvent/orderCancelled(_:stock:)`` when it
    /// cancelled it.
    func cancel(id: OrderID, claim: IdempotencyClaim?, _ decide: @escaping @Sendable (Order) throws -> Order) async throws -> OrderCancellationOutcome
    /// The order with this id.
    func order(id: OrderID) async throws -> Order?
    /// Up to `limit` of a user's orders, newest first, strictly after `after`.
    func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async throws -> [Order]
}

extension OrderRepository {
    /// ``cancel(id:claim:_:)`` without an idempotency key.
    public func cancel(id: OrderID, _ decide: @escaping @Sendable (Order) throws -> Order) async throws -> OrderCancellationOutcome {
        try await cancel(id: id, claim: nil, decide)
    }

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

/// What an atomic order cancellation did.
public enum OrderCancellationOutcome: Sendable, Hashable {
    /// The order as stored afterwards: cancelled now, or as it was when it was already.
    case stored(Order)
    /// Nothing changed: no order has that id.
    case notFound
}

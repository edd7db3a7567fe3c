import Domain

/// Orders held in memory, in the ``InMemoryInventory`` that also holds the menu items' stock:
/// placing an order checks every line's stock, takes it and stores the order in one step of
/// that one actor (all or nothing, no restock or other order in between). Two actors, one for
/// stock and one for orders, could not make that one step.
///
/// A struct that forwards each call to that actor. Its methods are `nonisolated(nonsending)`, so
/// a call changes executors only into the actor and back, as a call on the actor itself would.
public struct InMemoryOrderRepository: OrderRepository {
    /// What it answers from memory: every read of it (it holds everything).
    public var heldReads: Set<RepositoryRead> { [.orders] }

    private let inventory: InMemoryInventory

    /// The orders face of `inventory`.
    init(inventory: InMemoryInventory) {
        self.inventory = inventory
    }

    /// Takes every line's stock and stores the order, or changes nothing.
    public nonisolated(nonsending) func place(_ order: Order, claim: IdempotencyClaim?) async throws -> OrderPlacementOutcome {
        try await inventory.place(order, claim: claim)
    }

    /// Cancels the order as `decide` judges it and returns its lines' stock, in one step.
    public nonisolated(nonsending) func cancel(
        id: OrderID, claim: IdempotencyClaim?, _ decide: @escaping @Sendable (Order) throws -> Order
    ) async throws -> OrderCancellationOutcome {
        try await inventory.cancel(id: id, claim: claim, decide)
    }

    /// The order with this id.
    public nonisolated(nonsending) func order(id: OrderID) async -> Order? {
        await inventory.order(id: id)
    }

    /// A user's orders, newest first, after `after`.
    public nonisolated(nonsending) func orders(of userId: UserID, after: RecencyKey<Order>?, limit: Int) async -> [Order] {
        await inventory.orders(of: userId, after: after, limit: limit)
    }
}

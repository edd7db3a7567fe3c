/// Cancels a user's own order within 30 minutes of placing it, returning its stock.
public struct CancelOrder: Sendable {
    private let users: any UserRepository
    private let orders: any OrderRepository
    private let clock: any WallClock

    /// Creates the use case.
    public init(users: any UserRepository, orders: any OrderRepository, clock: any WallClock) {
        self.users = users
        self.orders = orders
        self.clock = clock
    }

    /// The order as stored afterwards. Checks, in order: unknown order or unknown user
    /// [not_found]; inactive user [unauthorized]; another user's order [unauthorized]; an order
    /// already cancelled is answered as it is, changing nothing; an order older than the
    /// cancellation window by the clock [business_rule]. Otherwise the status change and the
    /// return of every line's stock are one atomic step of the store, so an order's stock comes
    /// back once however many cancellations race.
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(orderId: OrderID, userId: UserID, claim: IdempotencyClaim? = nil) async throws -> Order {
        guard let seen = try await orders.order(id: orderId) else {
            throw DomainError.notFound(entity: "order", id: orderId.rawValue)
        }
        _ = try await users.activeUser(userId)
        // An order's owner never changes, so checking it on the order read above is final.
        guard seen.userId == userId else {
            throw DomainError.unauthorized(reason: "order \(orderId) belongs to another user")
        }
        let now = clock.now()
        // Judged again inside the store's atomic step, on the order as it is then.
        let outcome = try await orders.cancel(id: orderId, claim: claim) { order in
            if order.status == .cancelled { return order }
            guard order.canBeCancelled(at: now) else {
                throw DomainError.businessRule(.cancellationWindowClosed(orderId: order.id, windowMinutes: Int(Order.cancellationWindowMilliseconds / 60_000)))
            }
            return order.cancelled(at: now)
        }
        switch outcome {
        case .stored(let order):
            return order
        case .notFound:
            throw DomainError.notFound(entity: "order", id: orderId.rawValue)
        }
    }
}

/// One order. Order history stays readable after a user is deactivated.
public struct GetOrder: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.orders]

    private let orders: any OrderRepository

    /// Creates the use case.
    public init(orders: any OrderRepository) {
        self.orders = orders
    }

    /// Unknown order [not_found].
    public func execute(orderId: OrderID) async throws -> Order {
        guard let order = try await orders.order(id: orderId) else {
            throw DomainError.notFound(entity: "order", id: orderId.rawValue)
        }
        return order
    }
}

/// A user's orders, newest first, paged; readable for inactive users too.
public struct ListOrders: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.userById, .orders]

    private let users: any UserRepository
    private let orders: any OrderRepository

    /// Creates the use case.
    public init(users: any UserRepository, orders: any OrderRepository) {
        self.users = users
        self.orders = orders
    }

    /// Unknown user [not_found]; limit outside 1…500 or a foreign cursor [invalid_input].
    public func execute(userId: UserID, limit: Int? = nil, cursor: PageCursor? = nil) async throws -> Page<Order> {
        let limit = try Validate.limit(limit)
        let after = try cursor.map { cursor throws(DomainError) in try RecencyKey<Order>(cursor: cursor, kind: .orders) }
        _ = try await users.existingUser(userId)
        let rows = try await orders.orders(of: userId, after: after, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { RecencyKey(createdAt: $0.createdAt, id: $0.id).cursor(.orders) } : nil
        return Page(items: page, nextCursor: next)
    }
}

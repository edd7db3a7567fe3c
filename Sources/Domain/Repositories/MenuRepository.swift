/// Stores menu items and their stock.
public protocol MenuRepository: Sendable {
    /// Which of its reads (menuItems) it answers from what it holds in memory, without waiting for
    /// a database: the transport answers a use case whose reads are all held on the thread that
    /// received it.
    var heldReads: Set<RepositoryRead> { get }
    /// Stores a new item, binding `claim` to it in the same step.
    func insert(_ item: MenuItem, claim: IdempotencyClaim?) async throws
    /// The item with this id.
    func item(id: MenuItemID) async throws -> MenuItem?
    /// The items with these ids, in the order given; unknown ids are skipped.
    func items(ids: [MenuItemID]) async throws -> [MenuItem]
    /// A restaurant's items ordered by name (byte-wise), then id.
    func menu(of restaurantId: RestaurantID) async throws -> [MenuItem]
    /// Adds `quantity` to the item's stock atomically unless that would take it past
    /// `maximumStock` (then nothing changes). Binds `claim` to the restocked item in the same
    /// step.
    func restock(itemId: MenuItemID, quantity: Int, maximumStock: Int, claim: IdempotencyClaim?) async throws -> RestockOutcome
}

/// What an atomic restock did.
public enum RestockOutcome: Sendable, Hashable {
    /// The stock grew; the item as it is now.
    case restocked(MenuItem)
    /// Nothing changed: the item has `stock` units, and the quantity would take it past the maximum.
    case beyondMaximum(stock: Int)
    /// Nothing changed: there is no such item.
    case notFound
}

extension MenuRepository {
    /// ``insert(_:claim:)`` without an idempotency key.
    public func insert(_ item: MenuItem) async throws {
        try await insert(item, claim: nil)
    }

    /// ``restock(itemId:quantity:maximumStock:claim:)`` up to the largest stock an item may
    /// hold (``MenuItem/stocks``).
    public func restock(itemId: MenuItemID, quantity: Int, claim: IdempotencyClaim? = nil) async throws -> RestockOutcome {
        try await restock(itemId: itemId, quantity: quantity, maximumStock: MenuItem.stocks.upperBound, claim: claim)
    }
}

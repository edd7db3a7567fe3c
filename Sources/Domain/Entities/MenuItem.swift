/// A dish or product a restaurant sells, with its remaining stock.
public struct MenuItem: Sendable, Hashable, Identifiable {
    /// The item's id.
    public let id: MenuItemID
    /// The restaurant selling it.
    public let restaurantId: RestaurantID
    /// Name, 1…100 characters.
    public let name: String
    /// Unit price, more than zero.
    public let price: Money
    /// Units left; never negative.
    public let stock: Int

    /// Creates a menu item value.
    public init(id: MenuItemID, restaurantId: RestaurantID, name: String, price: Money, stock: Int) {
        self.id = id
        self.restaurantId = restaurantId
        self.name = name
        self.price = price
        self.stock = stock
    }

    /// Valid unit prices in minor units (the upper bound keeps order totals far from overflow).
    public static let prices = 1...1_000_000_000
    /// Valid stock, at creation and at all times: a restock that would take an item past the
    /// upper bound is refused.
    public static let stocks = 0...1_000_000_000
    /// Valid restock quantities.
    public static let restockQuantities = 1...1_000_000_000

    /// The price for people, e.g. "USD 12.50".
    public var displayPrice: String { price.formatted }

    /// Whether `quantity` units can be taken now.
    public func canSupply(_ quantity: Int) -> Bool { quantity <= stock }

    /// The item with its stock replaced.
    public func with(stock: Int) -> MenuItem {
        MenuItem(id: id, restaurantId: restaurantId, name: name, price: price, stock: stock)
    }
}

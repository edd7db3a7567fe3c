/// A menu item as returned by AddMenuItem, RestockMenuItem and GetMenu.
import WireContract
public struct MenuItem: Sendable, Hashable {
    /// The item's id.
    public var id: String
    /// The restaurant it belongs to.
    public var restaurantId: String
    /// The name.
    public var name: String
    /// Unit price in minor units of ``currency``.
    public var priceCents: Int
    /// ISO 4217 code (`USD`, `EUR`, …).
    public var currency: String
    /// Units left.
    public var stock: Int

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(id: String, restaurantId: String, name: String, priceCents: Int, currency: String, stock: Int) {
        self.id = id
        self.restaurantId = restaurantId
        self.name = name
        self.priceCents = priceCents
        self.currency = currency
        self.stock = stock
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        restaurantId = try f.string(WireMember.restaurantId.name)
        name = try f.string(WireMember.name.name)
        priceCents = try f.int(WireMember.priceCents.name)
        currency = try f.string(WireMember.currency.name)
        stock = try f.int(WireMember.stock.name)
    }
}

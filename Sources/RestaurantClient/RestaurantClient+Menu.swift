import WireJSON
import WireContract

extension RestaurantClient {
    /// AddMenuItem: adds an item priced in minor units of `currency` (e.g. `USD`).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func addMenuItem(restaurantId: String, name: String, priceCents: Int, currency: String, stock: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> MenuItem {
        let params: JSONObject = [
            WireMember.restaurantId.name: .string(restaurantId), WireMember.name.name: .string(name), WireMember.priceCents.name: .int(priceCents),
            WireMember.currency.name: .string(currency), WireMember.stock.name: .int(stock),
        ]
        return try MenuItem(await fields(.addMenuItem, params, idempotencyKey: idempotencyKey).nested(WireMember.item.name))
    }

    /// RestockMenuItem: adds `quantity` units to the item's stock; returns the item.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func restockMenuItem(itemId: String, quantity: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> MenuItem {
        try MenuItem(await fields(.restockMenuItem, [WireMember.itemId.name: .string(itemId), WireMember.quantity.name: .int(quantity)], idempotencyKey: idempotencyKey).nested(WireMember.item.name))
    }

    /// GetMenu: the restaurant's items, by name.
    public func getMenu(restaurantId: String) async throws(RestaurantClientError) -> [MenuItem] {
        try await fields(.getMenu, [WireMember.restaurantId.name: .string(restaurantId)]).list(WireMember.items.name, MenuItem.init)
    }
}

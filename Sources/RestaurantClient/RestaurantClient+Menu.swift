import WireJSON

extension RestaurantClient {
    /// AddMenuItem: adds an item priced in minor units of `currency` (e.g. `USD`).
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func addMenuItem(restaurantId: String, name: String, priceCents: Int, currency: String, stock: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> MenuItem {
        let params: JSONObject = [
            "restaurantId": .string(restaurantId), "name": .string(name), "priceCents": .int(priceCents),
            "currency": .string(currency), "stock": .int(stock),
        ]
        return try MenuItem(await fields(.addMenuItem, params, idempotencyKey: idempotencyKey).nested("item"))
    }

    /// RestockMenuItem: adds `quantity` units to the item's stock; returns the item.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func restockMenuItem(itemId: String, quantity: Int, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> MenuItem {
        try MenuItem(await fields(.restockMenuItem, ["itemId": .string(itemId), "quantity": .int(quantity)], idempotencyKey: idempotencyKey).nested("item"))
    }

    /// GetMenu: the restaurant's items, by name.
    public func getMenu(restaurantId: String) async throws(RestaurantClientError) -> [MenuItem] {
        try await fields(.getMenu, ["restaurantId": .string(restaurantId)]).list("items", MenuItem.init)
    }
}

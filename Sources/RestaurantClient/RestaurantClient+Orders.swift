import WireJSON
import WireContract

extension RestaurantClient {
    /// PlaceOrder: orders `items` (distinct, one currency) for delivery. Resent after a timeout
    /// with the same idempotency key, so it is placed at most once per key; to place it again
    /// after your own restart without a duplicate, pass the key you stored with it.
    /// `idempotencyKey`: your own key for this write, `nil` for a new random one (see
    /// ``call(_:params:idempotencyKey:)``).
    public func placeOrder(
        userId: String, items: [OrderItemRequest], discountCents: Int? = nil, deliveryAddress: String,
        idempotencyKey: String? = nil
    ) async throws(RestaurantClientError) -> Order {
        var params: JSONObject = [
            WireMember.userId.name: .string(userId),
            WireMember.items.name: .array(items.map { .object([WireMember.itemId.name: .string($0.itemId), WireMember.quantity.name: .int($0.quantity)]) }),
            WireMember.deliveryAddress.name: .string(deliveryAddress),
        ]
        if let discountCents { params[WireMember.discountCents.name] = .int(discountCents) }
        return try Order(await fields(.placeOrder, params, idempotencyKey: idempotencyKey).nested(WireMember.order.name))
    }

    /// CancelOrder: cancels the user's own order within 30 minutes of placing it, returning its
    /// stock; an order cancelled already is answered as it is. Resent after a timeout with the
    /// same idempotency key. `idempotencyKey`: your own key for this write, `nil` for a new
    /// random one (see ``call(_:params:idempotencyKey:)``).
    public func cancelOrder(id: String, userId: String, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Order {
        try Order(await fields(.cancelOrder, [WireMember.orderId.name: .string(id), WireMember.userId.name: .string(userId)], idempotencyKey: idempotencyKey).nested(WireMember.order.name))
    }

    /// GetOrder: one order (also of inactive users).
    public func getOrder(id: String) async throws(RestaurantClientError) -> Order {
        try Order(await fields(.getOrder, [WireMember.orderId.name: .string(id)]).nested(WireMember.order.name))
    }

    /// ListOrders: a user's orders, newest first, paged.
    public func listOrders(userId: String, limit: Int? = nil, cursor: String? = nil) async throws(RestaurantClientError) -> Page<Order> {
        var params: JSONObject = [WireMember.userId.name: .string(userId)]
        if let limit { params[WireMember.limit.name] = .int(limit) }
        if let cursor { params[WireMember.cursor.name] = .string(cursor) }
        let result = try await fields(.listOrders, params)
        return Page(items: try result.list(WireMember.orders.name, Order.init), nextCursor: try result.optionalString(WireMember.nextCursor.name))
    }
}

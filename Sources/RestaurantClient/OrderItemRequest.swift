/// One line of a PlaceOrder request.
public struct OrderItemRequest: Sendable, Hashable {
    /// The menu item to order.
    public var itemId: String
    /// Units, 1…1,000,000.
    public var quantity: Int

    /// Creates an order line.
    public init(itemId: String, quantity: Int) {
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// An order as returned by PlaceOrder, GetOrder, ListOrders and CancelOrder.
import WireContract
public struct Order: Sendable, Hashable {
    /// Where an order stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Placed: its stock is taken.
        case placed
        /// Cancelled: its stock was returned.
        case cancelled
    }

    /// One line of an order.
    public struct Line: Sendable, Hashable {
        /// The ordered menu item.
        public var itemId: String
        /// Units ordered.
        public var quantity: Int
        /// The unit price when ordered, in minor units.
        public var unitPriceCents: Int

        /// Creates a value (e.g. for test doubles); the client decodes replies itself.
        public init(itemId: String, quantity: Int, unitPriceCents: Int) {
            self.itemId = itemId
            self.quantity = quantity
            self.unitPriceCents = unitPriceCents
        }

        init(_ f: Fields) throws(RestaurantClientError) {
            itemId = try f.string(WireMember.itemId.name)
            quantity = try f.int(WireMember.quantity.name)
            unitPriceCents = try f.int(WireMember.unitPriceCents.name)
        }
    }

    /// The order's id.
    public var id: String
    /// The ordering user.
    public var userId: String
    /// The lines in the order sent.
    public var items: [Line]
    /// Σ quantity × unitPriceCents.
    public var subtotalCents: Int
    /// Discount (0 when none).
    public var discountCents: Int
    /// Tax on subtotal − discount.
    public var taxCents: Int
    /// subtotal − discount + tax.
    public var totalCents: Int
    /// The one currency of every line.
    public var currency: String
    /// Where to deliver.
    public var deliveryAddress: String
    /// Creation time (ISO-8601 UTC string).
    public var createdAt: String
    /// Placed or cancelled.
    public var status: Status
    /// When it was cancelled (ISO-8601 UTC string); nil while placed.
    public var cancelledAt: String?

    /// Creates a value (e.g. for test doubles); the client decodes replies itself.
    public init(
        id: String, userId: String, items: [Line], subtotalCents: Int, discountCents: Int, taxCents: Int, totalCents: Int, currency: String,
        deliveryAddress: String, createdAt: String, status: Status = .placed, cancelledAt: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.items = items
        self.subtotalCents = subtotalCents
        self.discountCents = discountCents
        self.taxCents = taxCents
        self.totalCents = totalCents
        self.currency = currency
        self.deliveryAddress = deliveryAddress
        self.createdAt = createdAt
        self.status = status
        self.cancelledAt = cancelledAt
    }

    init(_ f: Fields) throws(RestaurantClientError) {
        id = try f.string(WireMember.id.name)
        userId = try f.string(WireMember.userId.name)
        items = try f.list(WireMember.items.name, Line.init)
        subtotalCents = try f.int(WireMember.subtotalCents.name)
        discountCents = try f.int(WireMember.discountCents.name)
        taxCents = try f.int(WireMember.taxCents.name)
        totalCents = try f.int(WireMember.totalCents.name)
        currency = try f.string(WireMember.currency.name)
        deliveryAddress = try f.string(WireMember.deliveryAddress.name)
        createdAt = try f.string(WireMember.createdAt.name)
        let status = try f.string(WireMember.status.name)
        guard let known = Status(rawValue: status) else {
            throw .malformedReply("order status \(status) is neither placed nor cancelled")
        }
        self.status = known
        cancelledAt = try f.optionalString(WireMember.cancelledAt.name)
    }
}

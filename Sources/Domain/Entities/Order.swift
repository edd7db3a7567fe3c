/// A placed order. Amounts are minor units of `currency`; the tax was fixed when it was placed.
public struct Order: Sendable, Hashable, Identifiable {
    /// Where an order stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Placed: its stock is taken.
        case placed
        /// Cancelled: its stock was returned.
        case cancelled
    }

    /// One line of an order.
    public struct Line: Sendable, Hashable {
        /// The ordered item.
        public let itemId: MenuItemID
        /// Units ordered, at least 1.
        public let quantity: Int
        /// The item's unit price when ordered.
        public let unitPriceCents: Int

        /// Creates an order line.
        public init(itemId: MenuItemID, quantity: Int, unitPriceCents: Int) {
            self.itemId = itemId
            self.quantity = quantity
            self.unitPriceCents = unitPriceCents
        }

        /// quantity × unit price.
        public var amountCents: Int { quantity * unitPriceCents }
    }

    /// The order's id.
    public let id: OrderID
    /// Who ordered.
    public let userId: UserID
    /// What was ordered, one line per distinct item.
    public let lines: [Line]
    /// The one currency of every line.
    public let currency: Currency
    /// Discount taken off the subtotal.
    public let discountCents: Int
    /// Tax on subtotal − discount, rounded half-to-even.
    public let taxCents: Int
    /// Where to deliver.
    public let deliveryAddress: String
    /// When it was placed.
    public let createdAt: Timestamp
    /// Placed or cancelled.
    public let status: Status
    /// When it was cancelled; nil while placed.
    public let cancelledAt: Timestamp?

    /// Creates an order value as stored.
    public init(
        id: OrderID, userId: UserID, lines: [Line], currency: Currency, discountCents: Int, taxCents: Int, deliveryAddress: String,
        createdAt: Timestamp, status: Status = .placed, cancelledAt: Timestamp? = nil
    ) {
        self.id = id
        self.userId = userId
        self.lines = lines
        self.currency = currency
        self.discountCents = discountCents
        self.taxCents = taxCents
        self.deliveryAddress = deliveryAddress
        self.createdAt = createdAt
        self.status = status
        self.cancelledAt = cancelledAt
    }

    /// Creates a new order, computing the tax on subtotal − discount with `taxRate`; the caller
    /// guarantees 0 ≤ discount ≤ subtotal.
    public init(id: OrderID, userId: UserID, lines: [Line], currency: Currency, discountCents: Int, taxRate: TaxRate, deliveryAddress: String, createdAt: Timestamp) {
        let subtotal = Order.subtotal(of: lines)
        self.init(
            id: id, userId: userId, lines: lines, currency: currency, discountCents: discountCents,
            taxCents: taxRate.tax(on: subtotal - discountCents), deliveryAddress: deliveryAddress, createdAt: createdAt
        )
    }

    /// Orders whose value after discount is below this many minor units are refused.
    public static let minimumValueCents = 1000
    /// The most distinct items in one order.
    public static let maximumLines = 100
    /// Valid quantities for one line.
    public static let quantities = 1...1_000_000
    /// The longest delivery address, in characters.
    public static let maximumAddressLength = 500

    /// How long after it was placed an order may be cancelled: 30 minutes.
    public static let cancellationWindowMilliseconds: Int64 = 30 * 60 * 1000

    /// Whether the cancellation window is still open at `now`: the order is not older than
    /// ``cancellationWindowMilliseconds``.
    public func canBeCancelled(at now: Timestamp) -> Bool {
        now <= createdAt.adding(milliseconds: Order.cancellationWindowMilliseconds)
    }

    /// This order cancelled at `time`.
    public func cancelled(at time: Timestamp) -> Order {
        Order(
            id: id, userId: userId, lines: lines, currency: currency, discountCents: discountCents, taxCents: taxCents,
            deliveryAddress: deliveryAddress, createdAt: createdAt, status: .cancelled, cancelledAt: time
        )
    }

    /// Sum of the lines.
    public var subtotalCents: Int { Order.subtotal(of: lines) }

    /// Sum of quantity × unit price over `lines`.
    public static func subtotal(of lines: [Line]) -> Int {
        lines.reduce(0) { $0 + $1.amountCents }
    }
    /// Subtotal − discount: the taxed amount.
    public var taxableCents: Int { subtotalCents - discountCents }
    /// Subtotal − discount + tax.
    public var totalCents: Int { taxableCents + taxCents }
}

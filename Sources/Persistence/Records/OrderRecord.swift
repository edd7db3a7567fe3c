import Domain
import GRDB

/// The `orders` row of an ``Order``: one property per column. Its lines are rows of
/// `order_lines` (``OrderLineRecord``).
struct OrderRecord: Sendable {
    var id: String
    var userId: String
    var currency: String
    var discountMinorUnits: Int
    var taxMinorUnits: Int
    var deliveryAddress: String
    var createdAt: Int64
    var status: String
    var cancelledAt: Int64?

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id
        case userId = "user_id"
        case currency
        case discountMinorUnits = "discount_minor_units"
        case taxMinorUnits = "tax_minor_units"
        case deliveryAddress = "delivery_address"
        case createdAt = "created_at"
        case status
        case cancelledAt = "cancelled_at"
    }

    /// The row of `order` (its lines are ``OrderLineRecord/lines(of:)``).
    init(_ order: Order) {
        id = order.id.rawValue
        userId = order.userId.rawValue
        currency = order.currency.code
        discountMinorUnits = order.discountCents
        taxMinorUnits = order.taxCents
        deliveryAddress = order.deliveryAddress
        createdAt = order.createdAt.millisecondsSinceEpoch
        status = order.status.rawValue
        cancelledAt = order.cancelledAt?.millisecondsSinceEpoch
    }

    /// The order of this row with `lines` (its `order_lines` rows in position order); an unknown
    /// currency or status, or a cancelled order without its time, is an error.
    func order(lines: [OrderLineRecord]) throws -> Order {
        guard let status = Order.Status(rawValue: status) else {
            throw StoreError.unmappable(table: Self.databaseTableName, column: Columns.status.name, value: self.status)
        }
        guard (status == .cancelled) == (cancelledAt != nil) else {
            throw StoreError.unmappable(table: Self.databaseTableName, column: Columns.cancelledAt.name, value: cancelledAt.map(String.init) ?? "NULL")
        }
        return Order(
            id: OrderID(id), userId: UserID(userId), lines: lines.map { $0.line() },
            currency: try MenuItemRecord.currency(currency, table: Self.databaseTableName), discountCents: discountMinorUnits,
            taxCents: taxMinorUnits, deliveryAddress: deliveryAddress, createdAt: Timestamp(millisecondsSinceEpoch: createdAt),
            status: status, cancelledAt: cancelledAt.map(Timestamp.init(millisecondsSinceEpoch:))
        )
    }
}

extension Order {
    /// Checks that `decided`, what a cancellation's decision answered for this stored order, is
    /// this order cancelled: anything else would be a wrong decision, written by no store.
    func checkCancellation(_ decided: Order) throws {
        guard status == .placed, decided.status == .cancelled, decided.cancelledAt != nil, decided.id == id, decided.lines == lines else {
            throw StoreError.inconsistentWrite("a cancellation of order \(id) answered an order that is not it cancelled")
        }
    }
}

extension OrderRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "orders"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        userId = try row.decode(forColumn: Columns.userId)
        currency = try row.decode(forColumn: Columns.currency)
        discountMinorUnits = try row.decode(forColumn: Columns.discountMinorUnits)
        taxMinorUnits = try row.decode(forColumn: Columns.taxMinorUnits)
        deliveryAddress = try row.decode(forColumn: Columns.deliveryAddress)
        createdAt = try row.decode(forColumn: Columns.createdAt)
        status = try row.decode(forColumn: Columns.status)
        cancelledAt = try row.decode(forColumn: Columns.cancelledAt)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .userId: userId
        case .currency: currency
        case .discountMinorUnits: discountMinorUnits
        case .taxMinorUnits: taxMinorUnits
        case .deliveryAddress: deliveryAddress
        case .createdAt: createdAt
        case .status: status
        case .cancelledAt: cancelledAt
        }
    }
}

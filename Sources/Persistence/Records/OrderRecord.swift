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

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id
        case userId = "user_id"
        case currency
        case discountMinorUnits = "discount_minor_units"
        case taxMinorUnits = "tax_minor_units"
        case deliveryAddress = "delivery_address"
        case createdAt = "created_at"
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
    }

    /// The order of this row with `lines` (its `order_lines` rows in position order); an unknown
    /// currency is an error.
    func order(lines: [OrderLineRecord]) throws -> Order {
        Order(
            id: OrderID(id), userId: UserID(userId), lines: lines.map { $0.line() },
            currency: try MenuItemRecord.currency(currency, table: Self.databaseTableName), discountCents: discountMinorUnits,
            taxCents: taxMinorUnits, deliveryAddress: deliveryAddress, createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
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
        }
    }
}

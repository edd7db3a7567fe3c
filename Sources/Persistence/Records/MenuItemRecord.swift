import Domain
import GRDB

/// The `menu_items` row of a ``MenuItem``: one property per column.
struct MenuItemRecord: Sendable {
    var id: String
    var restaurantId: String
    var name: String
    var priceMinorUnits: Int
    var currency: String
    var stock: Int

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id
        case restaurantId = "restaurant_id"
        case name
        case priceMinorUnits = "price_minor_units"
        case currency, stock
    }

    /// The row of `item`.
    init(_ item: MenuItem) {
        id = item.id.rawValue
        restaurantId = item.restaurantId.rawValue
        name = item.name
        priceMinorUnits = item.price.minorUnits
        currency = item.price.currency.code
        stock = item.stock
    }

    /// The item of this row; an unknown currency is an error.
    func item() throws -> MenuItem {
        MenuItem(
            id: MenuItemID(id), restaurantId: RestaurantID(restaurantId), name: name,
            price: Money(minorUnits: priceMinorUnits, currency: try Self.currency(currency, table: Self.databaseTableName)), stock: stock
        )
    }

    /// A stored `currency` code of `table` as a supported currency; an unknown code is an error.
    static func currency(_ code: String, table: String) throws -> Currency {
        guard let currency = Currency(code: code) else {
            throw StoreError.unmappable(table: table, column: Columns.currency.name, value: code)
        }
        return currency
    }
}

extension MenuItemRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "menu_items"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        restaurantId = try row.decode(forColumn: Columns.restaurantId)
        name = try row.decode(forColumn: Columns.name)
        priceMinorUnits = try row.decode(forColumn: Columns.priceMinorUnits)
        currency = try row.decode(forColumn: Columns.currency)
        stock = try row.decode(forColumn: Columns.stock)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .restaurantId: restaurantId
        case .name: name
        case .priceMinorUnits: priceMinorUnits
        case .currency: currency
        case .stock: stock
        }
    }
}

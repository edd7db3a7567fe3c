import Domain
import GRDB

/// The `menu_items` row of a ``MenuItem``, both ways.
enum MenuItemRecord {
    static let columns = "id, restaurant_id, name, price_minor_units, currency, stock"

    static func item(from row: Row) throws -> MenuItem {
        MenuItem(
            id: MenuItemID(try row.decode(forColumn: "id")),
            restaurantId: RestaurantID(try row.decode(forColumn: "restaurant_id")),
            name: try row.decode(forColumn: "name"),
            price: Money(minorUnits: try row.decode(forColumn: "price_minor_units"), currency: try currency(row, table: "menu_items")),
            stock: try row.decode(forColumn: "stock")
        )
    }

    static func arguments(_ item: MenuItem) -> StatementArguments {
        [item.id.rawValue, item.restaurantId.rawValue, item.name, item.price.minorUnits, item.price.currency.code, item.stock]
    }

    /// The row's `currency` column as a supported currency; an unknown code is an error.
    static func currency(_ row: Row, table: String) throws -> Currency {
        try currency(try row.decode(forColumn: "currency"), table: table)
    }

    /// A stored `currency` code of `table` as a supported currency; an unknown code is an error.
    static func currency(_ code: String, table: String) throws -> Currency {
        guard let currency = Currency(code: code) else {
            throw StoreError.unmappable(table: table, column: "currency", value: code)
        }
        return currency
    }
}

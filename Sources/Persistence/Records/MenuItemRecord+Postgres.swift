import Domain
import PostgresNIO

extension MenuItemRecord {
    /// The menu item of a PostgreSQL row of ``columns``, in that order.
    static func item(from row: PostgresRow) throws -> MenuItem {
        let (id, restaurantId, name, price, code, stock) = try row.decode((String, String, String, Int, String, Int).self)
        return MenuItem(
            id: MenuItemID(id), restaurantId: RestaurantID(restaurantId), name: name,
            price: Money(minorUnits: price, currency: try currency(code, table: "menu_items")), stock: stock
        )
    }
}

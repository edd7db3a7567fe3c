import GRDB

/// The `restaurant_search` row of a restaurant: its search keys, under the `number` of its
/// `restaurants` row (the FTS5 trigram index's `rowid`). Names and cuisines never change, so a
/// row is written once, right after its restaurant's.
struct RestaurantSearchRecord: Sendable {
    var rowid: Int64
    var nameKey: String
    var cuisineKey: String

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case rowid
        case nameKey = "name_key"
        case cuisineKey = "cuisine_key"
    }

    /// The search row of `restaurant`, stored at `rowid`.
    init(_ restaurant: RestaurantRecord, rowid: Int64) {
        self.rowid = rowid
        nameKey = restaurant.nameKey
        cuisineKey = restaurant.cuisineKey
    }
}

extension RestaurantSearchRecord: SQLiteRecord {
    static let databaseTableName = "restaurant_search"
    static let selection = columnList()
    static let insertion = insertStatement()

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .rowid: rowid
        case .nameKey: nameKey
        case .cuisineKey: cuisineKey
        }
    }
}

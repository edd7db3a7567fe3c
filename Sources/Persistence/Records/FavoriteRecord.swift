import Domain
import GRDB

/// The `favorites` row of a ``Favorite``: one property per column. The row's `number` (the save
/// order, which breaks ties of `saved_at`) is the database's to assign and is only sorted by.
struct FavoriteRecord: Sendable {
    var userId: String
    var restaurantId: String
    var savedAt: Int64

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case userId = "user_id"
        case restaurantId = "restaurant_id"
        case savedAt = "saved_at"
    }

    /// The row of `favorite`.
    init(_ favorite: Favorite) {
        userId = favorite.userId.rawValue
        restaurantId = favorite.restaurantId.rawValue
        savedAt = favorite.savedAt.millisecondsSinceEpoch
    }

    /// The favorite of this row.
    func favorite() -> Favorite {
        Favorite(userId: UserID(userId), restaurantId: RestaurantID(restaurantId), savedAt: Timestamp(millisecondsSinceEpoch: savedAt))
    }
}

extension FavoriteRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "favorites"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        userId = try row.decode(forColumn: Columns.userId)
        restaurantId = try row.decode(forColumn: Columns.restaurantId)
        savedAt = try row.decode(forColumn: Columns.savedAt)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .userId: userId
        case .restaurantId: restaurantId
        case .savedAt: savedAt
        }
    }
}

import Domain
import GRDB

/// The `favorites` row of a ``Favorite``, both ways.
enum FavoriteRecord {
    static let columns = "user_id, restaurant_id, saved_at"

    static func favorite(from row: Row) throws -> Favorite {
        Favorite(
            userId: UserID(try row.decode(forColumn: "user_id")),
            restaurantId: RestaurantID(try row.decode(forColumn: "restaurant_id")),
            savedAt: Timestamp(millisecondsSinceEpoch: try row.decode(forColumn: "saved_at"))
        )
    }

    static func arguments(_ favorite: Favorite) -> StatementArguments {
        [favorite.userId.rawValue, favorite.restaurantId.rawValue, favorite.savedAt.millisecondsSinceEpoch]
    }
}

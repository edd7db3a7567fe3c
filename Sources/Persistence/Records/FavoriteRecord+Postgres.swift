import Domain
import PostgresNIO

extension FavoriteRecord {
    /// The favorite of a PostgreSQL row of ``columns``, in that order.
    static func favorite(from row: PostgresRow) throws -> Favorite {
        let (userId, restaurantId, savedAt) = try row.decode((String, String, Int64).self)
        return Favorite(userId: UserID(userId), restaurantId: RestaurantID(restaurantId), savedAt: Timestamp(millisecondsSinceEpoch: savedAt))
    }
}

import Domain
import PostgresNIO

extension ReviewRecord {
    /// The review of a PostgreSQL row of ``columns``, in that order.
    static func review(from row: PostgresRow) throws -> Review {
        let (id, restaurantId, userId, rating, text, createdAt) = try row.decode((String, String, String, Int, String, Int64).self)
        return Review(
            id: ReviewID(id), restaurantId: RestaurantID(restaurantId), userId: UserID(userId), rating: rating, text: text,
            createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
    }
}

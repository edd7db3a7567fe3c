import Domain
import GRDB

/// The `reviews` row of a ``Review``, both ways.
enum ReviewRecord {
    static let columns = "id, restaurant_id, user_id, rating, text, created_at"

    static func review(from row: Row) throws -> Review {
        Review(
            id: ReviewID(try row.decode(forColumn: "id")),
            restaurantId: RestaurantID(try row.decode(forColumn: "restaurant_id")),
            userId: UserID(try row.decode(forColumn: "user_id")),
            rating: try row.decode(forColumn: "rating"),
            text: try row.decode(forColumn: "text"),
            createdAt: Timestamp(millisecondsSinceEpoch: try row.decode(forColumn: "created_at"))
        )
    }

    static func arguments(_ review: Review) -> StatementArguments {
        [review.id.rawValue, review.restaurantId.rawValue, review.userId.rawValue, review.rating, review.text, review.createdAt.millisecondsSinceEpoch]
    }
}

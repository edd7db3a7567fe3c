import Domain
import GRDB

/// The `reviews` row of a ``Review``: one property per column.
struct ReviewRecord: Sendable {
    var id: String
    var restaurantId: String
    var userId: String
    var rating: Int
    var text: String
    var createdAt: Int64

    /// The table's columns.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id
        case restaurantId = "restaurant_id"
        case userId = "user_id"
        case rating, text
        case createdAt = "created_at"
    }

    /// The row of `review`.
    init(_ review: Review) {
        id = review.id.rawValue
        restaurantId = review.restaurantId.rawValue
        userId = review.userId.rawValue
        rating = review.rating
        text = review.text
        createdAt = review.createdAt.millisecondsSinceEpoch
    }

    /// The review of this row.
    func review() -> Review {
        Review(
            id: ReviewID(id), restaurantId: RestaurantID(restaurantId), userId: UserID(userId), rating: rating, text: text,
            createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
    }
}

extension ReviewRecord: FetchableRecord, SQLiteRecord {
    static let databaseTableName = "reviews"
    static let selection = columnList()
    static let insertion = insertStatement()

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        restaurantId = try row.decode(forColumn: Columns.restaurantId)
        userId = try row.decode(forColumn: Columns.userId)
        rating = try row.decode(forColumn: Columns.rating)
        text = try row.decode(forColumn: Columns.text)
        createdAt = try row.decode(forColumn: Columns.createdAt)
    }

    func databaseValue(_ column: Columns) -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: id
        case .restaurantId: restaurantId
        case .userId: userId
        case .rating: rating
        case .text: text
        case .createdAt: createdAt
        }
    }
}

import Domain
import PostgresNIO

/// Restaurants and reviews in PostgreSQL. A review and its restaurant's new rating totals are
/// written in one transaction that holds the restaurant's row lock (`SELECT … FOR UPDATE`), so
/// the rating is always the mean of the stored reviews, whichever instances add reviews at once.
///
/// Every read asks the database (nothing is cached), so each instance sees every instance's
/// writes. A struct: the database holds the state; the only state of its own is the reads by id
/// waiting to go together (``PostgresRowLookup``).
public struct PostgresRestaurantRepository: RestaurantRepository {
    /// None: every read waits for the database.
    public var heldReads: Set<RepositoryRead> { [] }

    private let store: PostgresStore
    private let byId: PostgresRowLookup<RestaurantRecord, Restaurant>

    /// Restaurants of `store`.
    public init(store: PostgresStore) {
        self.store = store
        byId = PostgresRowLookup(store: store, one: SelectRestaurant.self, many: SelectRestaurants.self, id: \.id) { $0.restaurant() }
    }

    /// Stores a new restaurant; returns once committed.
    public func insert(_ restaurant: Restaurant, claim: IdempotencyClaim?) async throws {
        let insert = try Self.insert.query(RestaurantRecord(restaurant))
        try await store.writeOne(claim: claim) { connection, logger in
            try await connection.run(insert, logger)
            return ((), .changed(.restaurant(restaurant), .restaurantCreated(restaurant)))
        }
    }

    /// The restaurant with this id (read together with others asked meanwhile).
    public func restaurant(id: RestaurantID) async throws -> Restaurant? {
        try await byId(id.rawValue)
    }

    /// The restaurants with these ids, in the order given; unknown ids are skipped (read together
    /// with others asked meanwhile).
    public func restaurants(ids: [RestaurantID]) async throws -> [Restaurant] {
        guard !ids.isEmpty else { return [] }
        return try await byId(ids.map(\.rawValue)).compactMap { $0 }
    }

    /// Restaurants matching `query`, in rank order, strictly after `after`. The SQL text filter
    /// may select a restaurant whose Characters do not contain the text (see
    /// ``PostgresRestaurantListing``): rows are kept only if ``RestaurantQuery/matches(_:)``
    /// accepts them, and the listing goes on after the last row read until `limit` matched.
    public func list(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int) async throws -> [Restaurant] {
        var matching: [Restaurant] = []
        var position = after
        while matching.count < limit {
            let listing = PostgresRestaurantListing(query: query, after: position, limit: limit - matching.count)
            let rows = try await store.read { connection, logger in
                try await connection.rows(listing.sql, logger) { try RestaurantRecord($0).restaurant() }
            }
            matching += rows.filter(query.matches)
            guard rows.count == listing.limit, let last = rows.last else { break }
            position = RestaurantRankKey(last)
        }
        return matching
    }

    /// Listed restaurants, newest first, strictly after `after`.
    public func newest(after: RecencyKey<Restaurant>?, limit: Int) async throws -> [Restaurant] {
        try await store.read { connection, logger in
            try await connection.rows(
                PostgresNewestFirst(columns: RestaurantRecord.postgresSelection, table: "restaurants", filter: "listed", after: after, limit: limit).sql,
                logger
            ) { try RestaurantRecord($0).restaurant() }
        }
    }

    /// Stores the review and the restaurant's new totals in one transaction under the
    /// restaurant's row lock; returns the updated restaurant once committed, or `nil` (nothing
    /// stored) when the restaurant does not exist.
    public func addReview(_ review: Review, claim: IdempotencyClaim?) async throws -> Restaurant? {
        try await store.write(claim: claim) { connection, logger in
            guard let current = try await connection.row(
                "SELECT \(unescaped: RestaurantRecord.postgresSelection) FROM restaurants WHERE id = \(review.restaurantId.rawValue) FOR UPDATE",
                logger, { try RestaurantRecord($0).restaurant() }
            ) else {
                return (nil, nil)
            }
            let updated = current.addingReview(rating: review.rating)
            try await connection.run(Self.updateTotals.query(RestaurantRecord(updated)), logger)
            try await connection.run(Self.insertReview.query(ReviewRecord(review)), logger)
            return (updated, .changed(.review(review, restaurantRating: updated.rating), .reviewAdded(review, restaurantRating: updated.rating)))
        }
    }

    /// A restaurant's reviews, newest first, strictly after `after`.
    public func reviews(of restaurantId: RestaurantID, after: RecencyKey<Review>?, limit: Int) async throws -> [Review] {
        try await store.read { connection, logger in
            try await connection.rows(
                PostgresNewestFirst(
                    columns: ReviewRecord.postgresSelection, table: "reviews", filter: "restaurant_id = $1", filterArguments: [restaurantId.rawValue],
                    after: after, limit: limit
                ).sql,
                logger
            ) { try ReviewRecord($0).review() }
        }
    }

    /// CreateRestaurant.
    private static let insert = PostgresStatement<RestaurantRecord> { s in s.insert { $0 } }

    /// AddReview: the review's restaurant's new totals and the listing columns derived from them.
    private static let updateTotals = PostgresStatement<RestaurantRecord> { s in
        "UPDATE restaurants SET \(s.assignments([.ratingTotal, .reviewCount, .rankRating, .listed], of: { $0 })) WHERE id = \(s.value { $0.id })"
    }

    /// AddReview: the review.
    private static let insertReview = PostgresStatement<ReviewRecord> { s in s.insert { $0 } }

    /// How many reviews of the restaurant are newer than `since`, up to `atMost` (an index range
    /// scan that stops there).
    public func reviewCount(of restaurantId: RestaurantID, createdAfter since: Timestamp, atMost: Int) async throws -> Int {
        try await store.read { connection, logger in
            try await connection.row(
                """
                SELECT count(*)::bigint FROM (SELECT 1 FROM reviews WHERE restaurant_id = \(restaurantId.rawValue) \
                AND created_at > \(since.millisecondsSinceEpoch) LIMIT \(max(atMost, 0))) AS recent
                """,
                logger
            ) { try $0.decode(Int.self) } ?? 0
        }
    }
}

/// A restaurant by id (GetRestaurant, and every use case that checks a restaurant exists).
private enum SelectRestaurant: PreparedSQL {
    static let name = "svc_select_restaurant"
    static let sql = "SELECT \(RestaurantRecord.postgresSelection) FROM restaurants WHERE id = $1"
}

/// Restaurants by id, for reads by id asked together (``PostgresRowLookup``).
private enum SelectRestaurants: PreparedSQL {
    static let name = "svc_select_restaurants"
    static let sql = "SELECT \(RestaurantRecord.postgresSelection) FROM restaurants WHERE id = ANY($1)"
}

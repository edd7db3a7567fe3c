import Domain
import GRDB
import Persistence

/// CalculateRestaurantScore on a SQLite store whose one restaurant has a chosen number of recent
/// reviews, repeated a fixed number of times: a fixed amount of work whose instructions
/// callgrind can count, to show that a popular restaurant's score costs what a quiet one's does.
///
///     svcbench --score-store /tmp/s.sqlite --score-reviews 100000        # prepare, natively
///     valgrind --tool=callgrind svcbench --score-store /tmp/s.sqlite --score-iterations 50
///     valgrind --tool=callgrind svcbench --score-store /tmp/s.sqlite --score-iterations 250
///
/// and the difference of the two totals ÷ 200 is instructions per score.
enum ScoreBench {
    /// The one restaurant of the store, and the user who wrote its reviews.
    static let restaurantId = RestaurantID("r-score")
    static let userId = UserID("u-score")

    /// Creates the store at `path` (which must not exist) with the restaurant and `reviews`
    /// reviews of it, all written in the last `reviews` milliseconds (so all recent).
    static func prepare(path: String, reviews: Int) async throws {
        let clock = SystemWallClock()
        let now = clock.now()
        let store = try SQLiteStore(path: path, clock: clock, events: nil)
        let users = try await SQLiteUserRepository(store: store)
        let restaurants = try await SQLiteRestaurantRepository(store: store)
        _ = try await users.insert(User(id: userId, name: "Score Bench", email: EmailAddress("score.bench@example.com")!, joinedAt: now))
        try await restaurants.insert(Restaurant(
            id: restaurantId, name: "Popular Bistro", cuisine: "French", priceLevel: 2, address: "1 Main St", latitude: 45, longitude: 9,
            imageUrl: nil, phoneNumber: nil, openingHours: [], ratingTotal: 4 * reviews, reviewCount: reviews, createdAt: now
        ))
        try await store.close()
        // Straight into the table, in one statement: through the use case this takes minutes.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO reviews (id, restaurant_id, user_id, rating, text, created_at)
                    SELECT printf('v-%07d', i), ?, ?, 4, '', ? - i FROM n
                    """,
                arguments: [reviews, restaurantId.rawValue, userId.rawValue, now.millisecondsSinceEpoch]
            )
        }
        try queue.close()
    }

    /// Opens the store at `path` and calculates the restaurant's score `iterations` times, one
    /// after the other; returns the last score.
    static func run(path: String, iterations: Int) async throws -> RestaurantScore {
        let store = try SQLiteStore(path: path, events: nil)
        let restaurants = try await SQLiteRestaurantRepository(store: store)
        let score = CalculateRestaurantScore(restaurants: restaurants, clock: SystemWallClock())
        var last: RestaurantScore?
        for _ in 0..<iterations {
            last = try await score.execute(restaurantId: restaurantId)
        }
        try await store.close()
        guard let last else { throw BenchError("no score calculated") }
        return last
    }
}

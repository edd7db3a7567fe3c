import Domain
import GRDB
import GRDBSQLite
@testable import Persistence
import RestaurantTesting
import Testing

/// A restaurant with 100,000 recent reviews costs its score no more than one with 10: the score's
/// formula uses at most 20 recent reviews and the stored count, so the count walks the index no
/// further than 20 entries, however popular the restaurant.
@Suite struct PopularRestaurantTests {
    /// Reviews of the popular restaurant, all of them recent.
    static let popularReviews = 100_000

    @Test func theRecentReviewCountOfAHundredThousandReviewsWalksNoFurtherThanOfTen() async throws {
        let world = try await World.open(.sqlite)
        let store = try #require(world.store)
        let user = try await world.makeUser()
        try await world.insertRestaurant(id: "r-popular", ratingTotal: 4 * Self.popularReviews, reviewCount: Self.popularReviews)
        try await world.insertRestaurant(id: "r-quiet", ratingTotal: 4 * 10, reviewCount: 10)
        let now = world.clock.now().millisecondsSinceEpoch
        // Straight into the table: 100,000 reviews through the use case would take minutes.
        for (restaurant, count) in [("r-popular", Self.popularReviews), ("r-quiet", 10)] {
            try rawSQL(store.path, """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO reviews (id, restaurant_id, user_id, rating, text, created_at)
                SELECT printf('v-%s-%07d', ?, i), ?, ?, 4, '', ? - i FROM n
                """, [count, restaurant, restaurant, user.id.rawValue, now])
        }

        // The score saturates: 20 recent reviews count as many as 100,000.
        let popular = try await world.calculateScore.execute(restaurantId: RestaurantID("r-popular"))
        #expect(popular == RestaurantScore(rating: 4, reviewCount: Self.popularReviews, recentReviewCount: 20))
        let quiet = try await world.calculateScore.execute(restaurantId: RestaurantID("r-quiet"))
        #expect(quiet == RestaurantScore(rating: 4, reviewCount: 10, recentReviewCount: 10))

        let threshold = Review.recencyThreshold(at: world.clock.now()).millisecondsSinceEpoch
        let limit = RestaurantScore.recentReviewSaturation
        let plan = try queryPlan(store.path, SQLiteRestaurantRepository.countRecentReviews, ["r-popular", threshold, limit])
        #expect(plan.contains { $0.contains("reviews USING COVERING INDEX reviews_by_restaurant (restaurant_id=? AND created_at>?)") }, "\(plan)")

        // The work, in SQLite's virtual-machine steps: the same for both, far below one step per review.
        let popularSteps = try virtualMachineSteps(store.path, SQLiteRestaurantRepository.countRecentReviews, ["r-popular", threshold, limit])
        let quietSteps = try virtualMachineSteps(store.path, SQLiteRestaurantRepository.countRecentReviews, ["r-quiet", threshold, limit])
        #expect(popularSteps.count == 20 && quietSteps.count == 10)
        #expect(Double(popularSteps.steps) <= 2.5 * Double(quietSteps.steps), "\(popularSteps.steps) steps for 100,000 reviews, \(quietSteps.steps) for 10")
        #expect(popularSteps.steps < 1_000, "\(popularSteps.steps) steps")
        // Without the bound the same count walks every one of them.
        let unbounded = try virtualMachineSteps(store.path, SQLiteRestaurantRepository.countRecentReviews, ["r-popular", threshold, -1])
        #expect(unbounded.count == Self.popularReviews && unbounded.steps > Self.popularReviews, "\(unbounded)")
        print("recent-review count, SQLite VM steps: \(popularSteps.steps) for 100,000 reviews, \(quietSteps.steps) for 10, \(unbounded.steps) unbounded")
    }
}

/// Runs a one-integer query on a separate connection; returns its result and how many
/// virtual-machine steps SQLite took for it (`SQLITE_STMTSTATUS_VM_STEP`): the work, whatever
/// the machine's speed.
private func virtualMachineSteps(_ path: String, _ sql: String, _ arguments: StatementArguments) throws -> (count: Int, steps: Int) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        let statement = try db.makeStatement(sql: sql)
        let count = try Int.fetchOne(statement, arguments: arguments) ?? -1
        return (count, Int(sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_VM_STEP, 0)))
    }
}

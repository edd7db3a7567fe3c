import Domain
import RestaurantTesting
import Testing

@Suite("AddReview")
struct AddReviewTests {
    @Test func addingAReviewStoresItAndReturnsTheNewRating() async throws {
        let world = World()
        let user = try await world.makeUser()           // id-000001
        let restaurant = try await world.makeRestaurant() // id-000002
        let output = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 4, text: "Great pasta"))
        let expected = Review(id: ReviewID("id-000003"), restaurantId: restaurant.id, userId: user.id, rating: 4, text: "Great pasta", createdAt: World.start)
        #expect(output.review == expected)
        #expect(output.restaurantRating == 4.0)
        #expect(try await world.getReviews.execute(restaurantId: restaurant.id).items == [expected])
        let stored = try #require(try await world.restaurants.restaurant(id: restaurant.id))
        #expect(stored.reviewCount == 1)
        #expect(stored.ratingTotal == 4)
    }

    @Test(arguments: [1, 5])
    func ratingsOneAndFiveAreAccepted(_ rating: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let output = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: rating, text: ""))
        #expect(output.review.rating == rating)
        #expect(output.restaurantRating == Double(rating))
    }

    @Test(arguments: [0, 6, -1, 100])
    func ratingOutside1To5IsRefusedNamingRatingAndStoresNothing(_ rating: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        await expectInvalidInput("rating") {
            try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: rating, text: "x"))
        }
        #expect(try await world.restaurants.restaurant(id: restaurant.id)?.reviewCount == 0)
        #expect(try await world.getReviews.execute(restaurantId: restaurant.id).items.isEmpty)
    }

    @Test func textOf2000CharactersIsAcceptedAnd2001Refused() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let ok = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 3, text: string(length: 2000)))
        #expect(ok.review.text.count == 2000)
        await expectInvalidInput("text") {
            try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 3, text: string(length: 2001)))
        }
        #expect(try await world.restaurants.restaurant(id: restaurant.id)?.reviewCount == 1)
    }

    @Test func emptyTextIsAccepted() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let output = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 2, text: ""))
        #expect(output.review.text == "")
    }

    @Test func aUserMayReviewTheSameRestaurantRepeatedlyAndEachReviewCounts() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        var last = 0.0
        for rating in [5, 4, 4] {
            last = try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: rating, text: "again")).restaurantRating
        }
        #expect(last == Double(13) / Double(3))
        let stored = try #require(try await world.restaurants.restaurant(id: restaurant.id))
        #expect(stored.reviewCount == 3)
        #expect(stored.rating == Double(13) / Double(3))
        #expect(try await world.getReviews.execute(restaurantId: restaurant.id).items.count == 3)
    }

    @Test func ratingIsTheMeanOfAllUsersReviews() async throws {
        let world = World()
        let ada = try await world.makeUser()
        let bob = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        try await world.review(restaurant.id, by: ada.id, ratings: [1])
        let output = try await world.addReview.execute(.init(userId: bob.id, restaurantId: restaurant.id, rating: 4, text: ""))
        #expect(output.restaurantRating == 2.5)
    }

    @Test func reviewOfUnknownRestaurantIsNotFoundAndStoresNothing() async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectNotFound("restaurant", id: "nope") {
            try await world.addReview.execute(.init(userId: user.id, restaurantId: RestaurantID("nope"), rating: 3, text: ""))
        }
        await expectNotFound("restaurant", id: "nope") {
            try await world.getReviews.execute(restaurantId: RestaurantID("nope"))
        }
    }

    @Test func reviewByUnknownUserIsNotFound() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectNotFound("user", id: "ghost") {
            try await world.addReview.execute(.init(userId: UserID("ghost"), restaurantId: restaurant.id, rating: 3, text: ""))
        }
        #expect(try await world.restaurants.restaurant(id: restaurant.id)?.reviewCount == 0)
    }

    @Test func reviewByInactiveUserIsUnauthorizedAndStoresNothing() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        let restaurant = try await world.makeRestaurant()
        await expectUnauthorized {
            try await world.addReview.execute(.init(userId: user.id, restaurantId: restaurant.id, rating: 5, text: ""))
        }
        #expect(try await world.restaurants.restaurant(id: restaurant.id) == restaurant)
        #expect(try await world.getReviews.execute(restaurantId: restaurant.id).items.isEmpty)
    }
}

@Suite("GetReviews")
struct GetReviewsTests {
    @Test func reviewsAreListedNewestFirst() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        for rating in [1, 2, 3] {
            try await world.review(restaurant.id, by: user.id, ratings: [rating])
            world.advance(minutes: 1)
        }
        let page = try await world.getReviews.execute(restaurantId: restaurant.id)
        #expect(page.items.map(\.rating) == [3, 2, 1])
        #expect(page.items.map(\.createdAt) == [World.start.adding(milliseconds: 120_000), World.start.adding(milliseconds: 60_000), World.start])
        #expect(page.nextCursor == nil)
    }

    @Test func reviewsOfOneRestaurantOnly() async throws {
        let world = World()
        let user = try await world.makeUser()
        let mine = try await world.makeRestaurant(name: "Mine")
        let other = try await world.makeRestaurant(name: "Other")
        try await world.review(mine.id, by: user.id, ratings: [5])
        try await world.review(other.id, by: user.id, ratings: [1])
        #expect(try await world.getReviews.execute(restaurantId: mine.id).items.map(\.rating) == [5])
    }

    @Test(arguments: [1, 2, 3, 7])
    func reviewPagingVisitsEachReviewOnceNewestFirst(_ limit: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        // Seven reviews; two share a timestamp, so the id must break the tie.
        for index in 0..<7 {
            try await world.review(restaurant.id, by: user.id, ratings: [index % 5 + 1])
            if index != 2 { world.advance(minutes: 1) }
        }
        let all = try await world.getReviews.execute(restaurantId: restaurant.id, limit: 500).items
        #expect(all.count == 7)
        for (newer, older) in zip(all, all.dropFirst()) {
            #expect(newer.createdAt > older.createdAt || (newer.createdAt == older.createdAt && older.id < newer.id))
        }
        let pages = try await collectPages { cursor in
            try await world.getReviews.execute(restaurantId: restaurant.id, limit: limit, cursor: cursor)
        }
        #expect(pages.flatMap(\.items) == all)
        #expect(pages.count == (7 + limit - 1) / limit)
        #expect(pages.last?.nextCursor == nil)
    }

    @Test func reviewsDefaultLimitIs50() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        try await world.review(restaurant.id, by: user.id, ratings: Array(repeating: 3, count: 51))
        let page = try await world.getReviews.execute(restaurantId: restaurant.id)
        #expect(page.items.count == 50)
        #expect(page.nextCursor != nil)
    }

    @Test(arguments: [0, 501])
    func reviewsRefuseLimitOutside1To500(_ limit: Int) async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectInvalidInput("limit") { try await world.getReviews.execute(restaurantId: restaurant.id, limit: limit) }
    }

    @Test func reviewsRefuseGarbageAndForeignCursors() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        _ = try await world.makeRestaurant(name: "Second")
        let feedCursor = try #require(try await world.loadFeed.execute(limit: 1).nextCursor)
        await expectInvalidInput("cursor") {
            try await world.getReviews.execute(restaurantId: restaurant.id, cursor: feedCursor)
        }
        await expectInvalidInput("cursor") {
            try await world.getReviews.execute(restaurantId: restaurant.id, cursor: PageCursor(token: "not a cursor"))
        }
    }
}

@Suite("CalculateRestaurantScore")
struct CalculateRestaurantScoreTests {
    /// Adds `old` reviews 60 days before World.start and `recent` reviews at World.start.
    private func seeded(old: [Int], recent: [Int]) async throws -> (World, RestaurantID) {
        let world = World(now: World.start.adding(days: -60))
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        try await world.review(restaurant.id, by: user.id, ratings: old)
        world.clock.set(World.start)
        try await world.review(restaurant.id, by: user.id, ratings: recent)
        return (world, restaurant.id)
    }

    @Test func scoreOfARestaurantWithoutReviewsIsZero() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        #expect(try await world.calculateScore.execute(restaurantId: restaurant.id).value == 0)
    }

    @Test func scoreBelowBothSaturationPoints() async throws {
        // 50 reviews (mean 4.5), 10 recent: 4.5×0.5 + 0.5×0.25 + 0.5×0.25 = 2.5
        let (world, id) = try await seeded(
            old: Array(repeating: 5, count: 20) + Array(repeating: 4, count: 20),
            recent: Array(repeating: 5, count: 5) + Array(repeating: 4, count: 5)
        )
        #expect(try await world.calculateScore.execute(restaurantId: id).value == 2.5)
    }

    @Test func scoreAtExactlyBothSaturationPoints() async throws {
        // 100 reviews of 3, 20 recent: 1.5 + 0.25 + 0.25 = 2.0
        let (world, id) = try await seeded(old: Array(repeating: 3, count: 80), recent: Array(repeating: 3, count: 20))
        #expect(try await world.calculateScore.execute(restaurantId: id).value == 2.0)
    }

    @Test func scoreAboveBothSaturationPointsIsCapped() async throws {
        // 150 reviews (125×5 + 25×2 = 675, mean 4.5), 25 recent: 2.25 + 0.25 + 0.25 = 2.75
        let (world, id) = try await seeded(old: Array(repeating: 5, count: 125), recent: Array(repeating: 2, count: 25))
        #expect(try await world.calculateScore.execute(restaurantId: id).value == 2.75)
    }

    @Test func scoreDropsTheRecencyPartOnceReviewsAreThirtyDaysOld() async throws {
        let (world, id) = try await seeded(old: Array(repeating: 5, count: 125), recent: Array(repeating: 2, count: 25))
        world.clock.set(World.start.adding(days: 30).adding(milliseconds: -1))
        #expect(try await world.calculateScore.execute(restaurantId: id).value == 2.75)
        world.clock.set(World.start.adding(days: 30))
        #expect(try await world.calculateScore.execute(restaurantId: id).value == 2.5)
    }

    @Test func scoreCountsOnlyReviewsYoungerThanThirtyDays() async throws {
        // Four reviews of 4, written 30 days, 29d23h59m, 1 day and 0 days before the score.
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let scoredAt = World.start.adding(days: 30)
        for age: Int64 in [30 * 86_400_000, 30 * 86_400_000 - 60_000, 86_400_000, 0] {
            world.clock.set(scoredAt.adding(milliseconds: -age))
            try await world.review(restaurant.id, by: user.id, ratings: [4])
        }
        world.clock.set(scoredAt)
        // 4×0.5 + 0.04×0.25 + (3/20)×0.25
        let expected = 4.0 * 0.5 + (4.0 / 100.0) * 0.25 + (3.0 / 20.0) * 0.25
        #expect(try await world.calculateScore.execute(restaurantId: restaurant.id).value == expected)
        #expect(try await world.calculateScore.execute(restaurantId: restaurant.id) == RestaurantScore(rating: 4, reviewCount: 4, recentReviewCount: 3))
    }

    @Test func scoreOfUnknownRestaurantIsNotFound() async throws {
        let world = World()
        await expectNotFound("restaurant", id: "nope") {
            try await world.calculateScore.execute(restaurantId: RestaurantID("nope"))
        }
    }
}

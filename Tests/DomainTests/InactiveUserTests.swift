import Domain
import RestaurantTesting
import Testing

/// The contract: "A use case given an inactive user's userId answers [unauthorized], except
/// GetOrder and ListOrders (order history stays readable) and DeactivateUser (idempotent)."
/// Each use case taking a userId is enumerated here against one shared scene.
@Suite("Inactive users")
struct InactiveUserTests {
    /// A user who ordered, saved and reviewed while active and was then deactivated.
    private struct Scene {
        let world: World
        let user: User
        let restaurant: Restaurant
        let other: Restaurant
        let item: MenuItem
        let order: Order

        init() async throws {
            world = World()
            let active = try await world.makeUser()
            restaurant = try await world.makeRestaurant(name: "Favorite")
            other = try await world.makeRestaurant(name: "Other")
            item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 1200, stock: 10)
            _ = try await world.saveFavorite.execute(userId: active.id, restaurantId: restaurant.id)
            try await world.review(restaurant.id, by: active.id, ratings: [4])
            order = try await world.placeOrder.execute(.init(userId: active.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "Home"))
            user = try await world.deactivateUser.execute(userId: active.id)
        }

        /// Nothing about the user, the favorites, the reviews or the stock changed.
        func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            #expect(try await world.users.user(id: user.id) == user, sourceLocation: sourceLocation)
            #expect(try await world.favorites.favorites(of: user.id).map(\.restaurantId) == [restaurant.id], sourceLocation: sourceLocation)
            #expect(try await world.restaurants.restaurant(id: restaurant.id)?.reviewCount == 1, sourceLocation: sourceLocation)
            #expect(try await world.restaurants.restaurant(id: other.id)?.reviewCount == 0, sourceLocation: sourceLocation)
            #expect(try await world.stock(of: item.id) == 9, sourceLocation: sourceLocation)
            #expect(try await world.listOrders.execute(userId: user.id).items == [order], sourceLocation: sourceLocation)
        }
    }

    @Test func getUserProfileRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.getUserProfile.execute(userId: scene.user.id) }
        try await scene.expectUnchanged()
    }

    @Test func updateUserProfileRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.updateUserProfile.execute(.init(userId: scene.user.id, name: "New", email: "new@example.com")) }
        try await scene.expectUnchanged()
    }

    @Test func startSubscriptionRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.startSubscription.execute(userId: scene.user.id, months: 12) }
        try await scene.expectUnchanged()
    }

    @Test func getRestaurantWithInactiveUserIdIsRefusedButWithoutUserWorks() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.getRestaurant.execute(restaurantId: scene.restaurant.id, userId: scene.user.id) }
        #expect(try await scene.world.getRestaurant.execute(restaurantId: scene.restaurant.id).isFavorite == nil)
    }

    @Test func saveFavoriteRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.saveFavorite.execute(userId: scene.user.id, restaurantId: scene.other.id) }
        try await scene.expectUnchanged()
    }

    @Test func removeFavoriteRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.removeFavorite.execute(userId: scene.user.id, restaurantId: scene.restaurant.id) }
        try await scene.expectUnchanged()
    }

    @Test func getFavoritesRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.getFavorites.execute(userId: scene.user.id) }
    }

    @Test func addReviewRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized { try await scene.world.addReview.execute(.init(userId: scene.user.id, restaurantId: scene.other.id, rating: 5, text: "")) }
        try await scene.expectUnchanged()
    }

    @Test func placeOrderRefusesInactiveUser() async throws {
        let scene = try await Scene()
        await expectUnauthorized {
            try await scene.world.placeOrder.execute(.init(userId: scene.user.id, items: [.init(itemId: scene.item.id, quantity: 1)], deliveryAddress: "Home"))
        }
        try await scene.expectUnchanged()
    }

    @Test func getOrderStaysReadableForInactiveUser() async throws {
        let scene = try await Scene()
        #expect(try await scene.world.getOrder.execute(orderId: scene.order.id) == scene.order)
    }

    @Test func listOrdersStaysReadableForInactiveUser() async throws {
        let scene = try await Scene()
        let page = try await scene.world.listOrders.execute(userId: scene.user.id)
        #expect(page.items == [scene.order])
        #expect(page.nextCursor == nil)
    }

    @Test func deactivateUserIsIdempotentForInactiveUser() async throws {
        let scene = try await Scene()
        let again = try await scene.world.deactivateUser.execute(userId: scene.user.id)
        #expect(again == scene.user)
        #expect(again.isActive == false)
        try await scene.expectUnchanged()
    }

    @Test func useCasesWithoutAUserStillWorkWhileAUserIsInactive() async throws {
        let scene = try await Scene()
        #expect(try await scene.world.listRestaurants.execute(.init()).items.count == 2)
        #expect(try await scene.world.getReviews.execute(restaurantId: scene.restaurant.id).items.count == 1)
        #expect(try await scene.world.getMenu.execute(restaurantId: scene.restaurant.id) == [scene.item.with(stock: 9)])
    }
}

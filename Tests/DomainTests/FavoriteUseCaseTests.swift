import Domain
import RestaurantTesting
import Testing

@Suite("SaveFavoriteRestaurant")
struct SaveFavoriteRestaurantTests {
    @Test func savingReturnsTheNewCountAndStoresTheFavorite() async throws {
        let world = World()
        let user = try await world.makeUser()
        let first = try await world.makeRestaurant(name: "First")
        let second = try await world.makeRestaurant(name: "Second")
        #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: first.id) == 1)
        world.advance(minutes: 5)
        #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: second.id) == 2)
        #expect(try await world.favorites.favorites(of: user.id) == [
            Favorite(userId: user.id, restaurantId: second.id, savedAt: World.start.adding(milliseconds: 300_000)),
            Favorite(userId: user.id, restaurantId: first.id, savedAt: World.start),
        ])
    }

    @Test func savingAnExistingFavoriteIsANoOpReturningTheSameCountAndKeepingItsPlace() async throws {
        let world = World()
        let user = try await world.makeUser()
        let a = try await world.makeRestaurant(name: "A")
        let b = try await world.makeRestaurant(name: "B")
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: a.id)
        world.advance(minutes: 1)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: b.id)
        world.advance(minutes: 1)
        #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: a.id) == 2)
        let stored = try await world.favorites.favorites(of: user.id)
        #expect(stored.map(\.restaurantId) == [b.id, a.id])
        #expect(stored.last?.savedAt == World.start)
    }

    @Test func favoritesAreCountedPerUser() async throws {
        let world = World()
        let ada = try await world.makeUser()
        let bob = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        #expect(try await world.saveFavorite.execute(userId: ada.id, restaurantId: restaurant.id) == 1)
        #expect(try await world.saveFavorite.execute(userId: bob.id, restaurantId: restaurant.id) == 1)
    }

    @Test func favoriteSaveBeyondCapIsRefusedWithBusinessRuleAndChangesNothing() async throws {
        let world = World()
        let user = try await world.makeUser()
        var ids: [RestaurantID] = []
        for index in 0..<101 {
            try await world.insertRestaurant(id: "fav-\(1000 + index)", name: "R\(index)")
            ids.append(RestaurantID("fav-\(1000 + index)"))
        }
        for (index, id) in ids.prefix(100).enumerated() {
            #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: id) == index + 1)
        }
        await expectBusinessRule(.favoritesLimitReached(limit: 100)) {
            try await world.saveFavorite.execute(userId: user.id, restaurantId: ids[100])
        }
        let stored = try await world.favorites.favorites(of: user.id)
        #expect(stored.count == 100)
        #expect(!stored.contains { $0.restaurantId == ids[100] })
        #expect(try await world.getFavorites.execute(userId: user.id).count == 100)
    }

    @Test func resavingAnExistingFavoriteAtTheCapIsStillANoOp() async throws {
        let world = World()
        let user = try await world.makeUser()
        for index in 0..<100 {
            try await world.insertRestaurant(id: "cap-\(1000 + index)", name: "R\(index)")
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("cap-\(1000 + index)"))
        }
        #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("cap-1042")) == 100)
    }

    @Test func removingOneAtTheCapMakesRoomForAnother() async throws {
        let world = World()
        let user = try await world.makeUser()
        for index in 0..<101 {
            try await world.insertRestaurant(id: "room-\(1000 + index)", name: "R\(index)")
        }
        for index in 0..<100 {
            _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("room-\(1000 + index)"))
        }
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: RestaurantID("room-1000")) == 99)
        #expect(try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("room-1100")) == 100)
    }

    @Test func savingForUnknownUserIsNotFound() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectNotFound("user", id: "ghost") {
            try await world.saveFavorite.execute(userId: UserID("ghost"), restaurantId: restaurant.id)
        }
    }

    @Test func savingUnknownRestaurantIsNotFoundAndStoresNothing() async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectNotFound("restaurant", id: "nope") {
            try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("nope"))
        }
        #expect(try await world.favorites.favorites(of: user.id).isEmpty)
    }

    @Test func savingForInactiveUserIsUnauthorizedAndStoresNothing() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        let restaurant = try await world.makeRestaurant()
        await expectUnauthorized {
            try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        }
        #expect(try await world.favorites.favorites(of: user.id).isEmpty)
    }
}

@Suite("RemoveFavoriteRestaurant")
struct RemoveFavoriteRestaurantTests {
    @Test func removingReturnsTheNewCountAndForgetsTheFavorite() async throws {
        let world = World()
        let user = try await world.makeUser()
        let a = try await world.makeRestaurant(name: "A")
        let b = try await world.makeRestaurant(name: "B")
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: a.id)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: b.id)
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: a.id) == 1)
        #expect(try await world.favorites.favorites(of: user.id).map(\.restaurantId) == [b.id])
        #expect(try await world.getRestaurant.execute(restaurantId: a.id, userId: user.id).isFavorite == false)
    }

    @Test func removingANonFavoriteIsANoOpReturningTheCount() async throws {
        let world = World()
        let user = try await world.makeUser()
        let saved = try await world.makeRestaurant(name: "Saved")
        let never = try await world.makeRestaurant(name: "Never")
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: saved.id)
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: never.id) == 1)
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: saved.id) == 0)
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: saved.id) == 0)
    }

    @Test func removingForUnknownUserIsNotFound() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectNotFound("user", id: "ghost") {
            try await world.removeFavorite.execute(userId: UserID("ghost"), restaurantId: restaurant.id)
        }
    }

    @Test func removingUnknownRestaurantIsNotFound() async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectNotFound("restaurant", id: "nope") {
            try await world.removeFavorite.execute(userId: user.id, restaurantId: RestaurantID("nope"))
        }
    }

    @Test func removingForInactiveUserIsUnauthorizedAndKeepsTheFavorite() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        _ = try await world.deactivateUser.execute(userId: user.id)
        await expectUnauthorized {
            try await world.removeFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        }
        #expect(try await world.favorites.contains(userId: user.id, restaurantId: restaurant.id))
    }
}

@Suite("GetFavoriteRestaurants")
struct GetFavoriteRestaurantsTests {
    @Test func favoritesAreListedNewestSavedFirst() async throws {
        let world = World()
        let user = try await world.makeUser()
        let a = try await world.makeRestaurant(name: "A")
        let b = try await world.makeRestaurant(name: "B")
        let c = try await world.makeRestaurant(name: "C")
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: b.id)
        world.advance(minutes: 1)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: a.id)
        world.advance(milliseconds: 1)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: c.id)
        let favorites = try await world.getFavorites.execute(userId: user.id)
        #expect(favorites == [c, a, b])
    }

    @Test func aUserWithoutFavoritesGetsAnEmptyList() async throws {
        let world = World()
        let user = try await world.makeUser()
        _ = try await world.makeRestaurant()
        #expect(try await world.getFavorites.execute(userId: user.id).isEmpty)
    }

    @Test func favoritesShowTheRestaurantsCurrentRating() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: restaurant.id)
        try await world.review(restaurant.id, by: user.id, ratings: [3])
        #expect(try await world.getFavorites.execute(userId: user.id).map(\.rating) == [3.0])
    }

    @Test func invalidRestaurantsAreLeftOutOfFavorites() async throws {
        let world = World()
        let user = try await world.makeUser()
        let good = try await world.makeRestaurant(name: "Good")
        try await world.insertRestaurant(id: "bad", name: "Bad", priceLevel: 9)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: good.id)
        world.advance(minutes: 1)
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: RestaurantID("bad"))
        #expect(try await world.getFavorites.execute(userId: user.id).map(\.id) == [good.id])
    }

    @Test func favoritesOfUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "ghost") {
            try await world.getFavorites.execute(userId: UserID("ghost"))
        }
    }

    @Test func favoritesOfInactiveUserIsUnauthorized() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        await expectUnauthorized {
            try await world.getFavorites.execute(userId: user.id)
        }
    }
}

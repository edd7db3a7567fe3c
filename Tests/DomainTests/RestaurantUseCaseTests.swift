import Domain
import RestaurantTesting
import Testing

@Suite("CreateRestaurant")
struct CreateRestaurantTests {
    @Test func createStoresEveryFieldTrimmedWithNoReviewsAndTheClocksTime() async throws {
        let world = World()
        let restaurant = try await world.createRestaurant.execute(.init(
            name: "  Trattoria Roma ", cuisine: " Italian ", priceLevel: 3, address: " 1 Via Appia ",
            latitude: 41.9, longitude: 12.5, imageUrl: " https://img.example/roma.jpg ",
            phoneNumber: " +39 06 123 ", website: " https://roma.example ", openingHours: [" Mon-Fri 11:00-22:00 ", "Sat 12:00-23:00"]
        ))
        let expected = Restaurant(
            id: RestaurantID("id-000001"), name: "Trattoria Roma", cuisine: "Italian", priceLevel: 3,
            address: "1 Via Appia", latitude: 41.9, longitude: 12.5, imageUrl: "https://img.example/roma.jpg",
            phoneNumber: "+39 06 123", website: "https://roma.example",
            openingHours: ["Mon-Fri 11:00-22:00", "Sat 12:00-23:00"], ratingTotal: 0, reviewCount: 0,
            createdAt: World.start
        )
        #expect(restaurant == expected)
        #expect(restaurant.rating == 0)
        #expect(restaurant.reviewCount == 0)
        #expect(try await world.restaurants.restaurant(id: restaurant.id) == expected)
    }

    @Test func createTurnsBlankOptionalFieldsIntoNil() async throws {
        let world = World()
        let restaurant = try await world.createRestaurant.execute(.init(
            name: "Plain", cuisine: "Thai", priceLevel: 1, address: "Somewhere", latitude: 0, longitude: 0,
            imageUrl: "  ", phoneNumber: "", website: nil, openingHours: nil
        ))
        #expect(restaurant.imageUrl == nil)
        #expect(restaurant.phoneNumber == nil)
        #expect(restaurant.website == nil)
        #expect(restaurant.openingHours == [])
    }

    @Test(arguments: [1, 2, 3, 4])
    func createAcceptsPriceLevelsOneToFour(_ level: Int) async throws {
        let world = World()
        #expect(try await world.makeRestaurant(priceLevel: level).priceLevel == level)
    }

    @Test(arguments: [0, 5, -1, 9])
    func createRefusesPriceLevelOutsideOneToFour(_ level: Int) async throws {
        let world = World()
        await expectInvalidInput("priceLevel") { try await world.makeRestaurant(priceLevel: level) }
        #expect(try await world.loadFeed.execute().items.isEmpty)
    }

    @Test(arguments: [-90.0, 90.0, 0.0, -89.9999, 89.9999])
    func createAcceptsLatitudeWithinRange(_ latitude: Double) async throws {
        let world = World()
        #expect(try await world.makeRestaurant(latitude: latitude).latitude == latitude)
    }

    @Test(arguments: [-90.0001, 90.0001, Double.nan, Double.infinity, -Double.infinity, 180.0])
    func createRefusesLatitudeOutsideRangeOrNotFinite(_ latitude: Double) async throws {
        let world = World()
        await expectInvalidInput("latitude") { try await world.makeRestaurant(latitude: latitude) }
        #expect(try await world.loadFeed.execute().items.isEmpty)
    }

    @Test(arguments: [-180.0, 180.0, 0.0])
    func createAcceptsLongitudeWithinRange(_ longitude: Double) async throws {
        let world = World()
        #expect(try await world.makeRestaurant(longitude: longitude).longitude == longitude)
    }

    @Test(arguments: [-180.0001, 180.0001, Double.nan, Double.infinity, -Double.infinity])
    func createRefusesLongitudeOutsideRangeOrNotFinite(_ longitude: Double) async throws {
        let world = World()
        await expectInvalidInput("longitude") { try await world.makeRestaurant(longitude: longitude) }
        #expect(try await world.loadFeed.execute().items.isEmpty)
    }

    @Test(arguments: ["", "   ", "\t\n"])
    func createRefusesBlankNameCuisineOrAddress(_ blank: String) async throws {
        let world = World()
        await expectInvalidInput("name") { try await world.makeRestaurant(name: blank) }
        await expectInvalidInput("cuisine") { try await world.makeRestaurant(cuisine: blank) }
        await expectInvalidInput("address") { try await world.makeRestaurant(address: blank) }
        #expect(try await world.loadFeed.execute().items.isEmpty)
    }

    @Test func createAccepts100CharacterNameAndCuisineAndRefuses101() async throws {
        let world = World()
        let ok = try await world.makeRestaurant(name: string(length: 100, of: "n"), cuisine: string(length: 100, of: "c"))
        #expect(ok.name == string(length: 100, of: "n"))
        #expect(ok.cuisine == string(length: 100, of: "c"))
        await expectInvalidInput("name") { try await world.makeRestaurant(name: string(length: 101)) }
        await expectInvalidInput("cuisine") { try await world.makeRestaurant(cuisine: string(length: 101)) }
        #expect(try await world.loadFeed.execute().items.map(\.id) == [ok.id])
    }

    @Test func createRefusesMoreThan14OpeningHoursLinesOrABlankLine() async throws {
        let world = World()
        let fourteen = Array(repeating: "Daily 9-5", count: 14)
        let ok = try await world.createRestaurant.execute(.init(name: "A", cuisine: "B", priceLevel: 1, address: "C", latitude: 0, longitude: 0, openingHours: fourteen))
        #expect(ok.openingHours.count == 14)
        await expectInvalidInput("openingHours") {
            try await world.createRestaurant.execute(.init(name: "A", cuisine: "B", priceLevel: 1, address: "C", latitude: 0, longitude: 0, openingHours: fourteen + ["x"]))
        }
        await expectInvalidInput("openingHours") {
            try await world.createRestaurant.execute(.init(name: "A", cuisine: "B", priceLevel: 1, address: "C", latitude: 0, longitude: 0, openingHours: ["  "]))
        }
    }
}

@Suite("GetRestaurant")
struct GetRestaurantTests {
    @Test func getWithoutUserReturnsTheRestaurantAndNoFavoriteFlag() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let output = try await world.getRestaurant.execute(restaurantId: restaurant.id)
        #expect(output.restaurant == restaurant)
        #expect(output.isFavorite == nil)
    }

    @Test func getWithUserTellsWhetherItIsAFavorite() async throws {
        let world = World()
        let saved = try await world.makeRestaurant(name: "Saved")
        let other = try await world.makeRestaurant(name: "Other")
        let user = try await world.makeUser()
        _ = try await world.saveFavorite.execute(userId: user.id, restaurantId: saved.id)
        #expect(try await world.getRestaurant.execute(restaurantId: saved.id, userId: user.id).isFavorite == true)
        #expect(try await world.getRestaurant.execute(restaurantId: other.id, userId: user.id).isFavorite == false)
        #expect(try await world.getRestaurant.execute(restaurantId: saved.id, userId: user.id).restaurant == saved)
    }

    @Test func getShowsTheCurrentRatingAfterReviews() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let user = try await world.makeUser()
        try await world.review(restaurant.id, by: user.id, ratings: [5, 4])
        let shown = try await world.getRestaurant.execute(restaurantId: restaurant.id).restaurant
        #expect(shown.reviewCount == 2)
        #expect(shown.rating == 4.5)
    }

    @Test func getUnknownRestaurantIsNotFound() async throws {
        let world = World()
        await expectNotFound("restaurant", id: "nope") {
            try await world.getRestaurant.execute(restaurantId: RestaurantID("nope"))
        }
    }

    @Test func getInvalidStoredRestaurantIsNotFound() async throws {
        let world = World()
        try await world.insertRestaurant(id: "bad", priceLevel: 9)
        await expectNotFound("restaurant", id: "bad") {
            try await world.getRestaurant.execute(restaurantId: RestaurantID("bad"))
        }
    }

    @Test func getWithUnknownUserIsNotFound() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectNotFound("user", id: "ghost") {
            try await world.getRestaurant.execute(restaurantId: restaurant.id, userId: UserID("ghost"))
        }
    }

    @Test func getWithInactiveUserIsUnauthorized() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let user = try await world.makeInactiveUser()
        await expectUnauthorized {
            try await world.getRestaurant.execute(restaurantId: restaurant.id, userId: user.id)
        }
    }
}

@Suite("ListRestaurants")
struct ListRestaurantsTests {
    /// Rating 5: "Zeta"; rating 4: two "Alpha" (ids r-b, r-a) and "Beta"; rating 0: "Omega".
    private func seedRanked(_ world: World) async throws {
        try await world.insertRestaurant(id: "r-z", name: "Zeta", ratingTotal: 5, reviewCount: 1)
        try await world.insertRestaurant(id: "r-b", name: "Alpha", ratingTotal: 8, reviewCount: 2)
        try await world.insertRestaurant(id: "r-beta", name: "Beta", ratingTotal: 4, reviewCount: 1)
        try await world.insertRestaurant(id: "r-a", name: "Alpha", ratingTotal: 12, reviewCount: 3)
        try await world.insertRestaurant(id: "r-o", name: "Omega")
    }

    @Test func listSortsByRatingDescendingThenNameThenId() async throws {
        let world = World()
        try await seedRanked(world)
        let page = try await world.listRestaurants.execute(.init())
        #expect(page.items.map(\.id.rawValue) == ["r-z", "r-a", "r-b", "r-beta", "r-o"])
        #expect(page.nextCursor == nil)
    }

    @Test func listReturnsRestaurantsCreatedThroughTheUseCaseWithExactValues() async throws {
        let world = World()
        let created = try await world.makeRestaurant(name: "Only")
        let page = try await world.listRestaurants.execute(.init())
        #expect(page.items == [created])
        #expect(page.nextCursor == nil)
    }

    @Test func listRanksByTheMeanRatingFromReviews() async throws {
        let world = World()
        let user = try await world.makeUser()
        let good = try await world.makeRestaurant(name: "Good")
        let better = try await world.makeRestaurant(name: "Better")
        try await world.review(good.id, by: user.id, ratings: [5, 3])   // 4.0
        try await world.review(better.id, by: user.id, ratings: [5, 4]) // 4.5
        let page = try await world.listRestaurants.execute(.init())
        #expect(page.items.map(\.id) == [better.id, good.id])
        #expect(page.items.map(\.rating) == [4.5, 4.0])
    }

    @Test func listFiltersCuisineCaseInsensitively() async throws {
        let world = World()
        try await world.insertRestaurant(id: "r-1", name: "One", cuisine: "Italian")
        try await world.insertRestaurant(id: "r-2", name: "Two", cuisine: "ITALIAN")
        try await world.insertRestaurant(id: "r-3", name: "Three", cuisine: "Thai")
        try await world.insertRestaurant(id: "r-4", name: "Four", cuisine: "Italian Fusion")
        let page = try await world.listRestaurants.execute(.init(cuisine: " italian "))
        #expect(page.items.map(\.id.rawValue) == ["r-1", "r-2"])
    }

    @Test func listMinRatingIsInclusive() async throws {
        let world = World()
        try await world.insertRestaurant(id: "r-4", name: "Four", ratingTotal: 4, reviewCount: 1)
        try await world.insertRestaurant(id: "r-399", name: "Almost", ratingTotal: 399, reviewCount: 100) // 3.99
        try await world.insertRestaurant(id: "r-45", name: "More", ratingTotal: 9, reviewCount: 2)
        let page = try await world.listRestaurants.execute(.init(minRating: 4.0))
        #expect(page.items.map(\.id.rawValue) == ["r-45", "r-4"])
    }

    @Test func listMaxPriceLevelIsInclusive() async throws {
        let world = World()
        try await world.insertRestaurant(id: "p1", name: "A", priceLevel: 1)
        try await world.insertRestaurant(id: "p2", name: "B", priceLevel: 2)
        try await world.insertRestaurant(id: "p3", name: "C", priceLevel: 3)
        try await world.insertRestaurant(id: "p4", name: "D", priceLevel: 4)
        let page = try await world.listRestaurants.execute(.init(maxPriceLevel: 2))
        #expect(page.items.map(\.id.rawValue) == ["p1", "p2"])
    }

    @Test func listCombinesFilters() async throws {
        let world = World()
        try await world.insertRestaurant(id: "hit", name: "Hit", cuisine: "Thai", priceLevel: 2, ratingTotal: 5, reviewCount: 1)
        try await world.insertRestaurant(id: "pricey", name: "Pricey", cuisine: "Thai", priceLevel: 3, ratingTotal: 5, reviewCount: 1)
        try await world.insertRestaurant(id: "low", name: "Low", cuisine: "Thai", priceLevel: 1, ratingTotal: 2, reviewCount: 1)
        try await world.insertRestaurant(id: "other", name: "Other", cuisine: "Greek", priceLevel: 1, ratingTotal: 5, reviewCount: 1)
        let page = try await world.listRestaurants.execute(.init(cuisine: "thai", minRating: 3, maxPriceLevel: 2))
        #expect(page.items.map(\.id.rawValue) == ["hit"])
    }

    @Test func listNeverShowsInvalidRestaurants() async throws {
        let world = World()
        try await world.insertRestaurant(id: "valid", name: "Valid")
        try await world.insertRestaurant(id: "price9", name: "Price nine", priceLevel: 9)
        try await world.insertRestaurant(id: "price0", name: "Price zero", priceLevel: 0)
        try await world.insertRestaurant(id: "lat", name: "Pole", latitude: 91)
        try await world.insertRestaurant(id: "lon", name: "Dateline", longitude: -181)
        try await world.insertRestaurant(id: "nan", name: "Nowhere", latitude: .nan)
        try await world.insertRestaurant(id: "blank", name: "   ")
        try await world.insertRestaurant(id: "noaddress", name: "No address", address: " ")
        try await world.insertRestaurant(id: "rating6", name: "Too good", ratingTotal: 6, reviewCount: 1)
        let page = try await world.listRestaurants.execute(.init())
        #expect(page.items.map(\.id.rawValue) == ["valid"])
        let filtered = try await world.listRestaurants.execute(.init(cuisine: "italian", maxPriceLevel: 4))
        #expect(filtered.items.map(\.id.rawValue) == ["valid"])
    }

    @Test func listDefaultLimitIs50() async throws {
        let world = World()
        for index in 0..<51 {
            try await world.insertRestaurant(id: "r-\(1000 + index)", name: "R\(1000 + index)")
        }
        let page = try await world.listRestaurants.execute(.init())
        #expect(page.items.count == 50)
        #expect(page.nextCursor != nil)
        let rest = try await world.listRestaurants.execute(.init(cursor: page.nextCursor))
        #expect(rest.items.map(\.id.rawValue) == ["r-1050"])
        #expect(rest.nextCursor == nil)
    }

    @Test(arguments: [0, 501, -1])
    func listRefusesLimitOutside1To500(_ limit: Int) async throws {
        let world = World()
        await expectInvalidInput("limit") { try await world.listRestaurants.execute(.init(limit: limit)) }
    }

    @Test func listAcceptsLimitsOneAnd500() async throws {
        let world = World()
        try await seedRanked(world)
        let one = try await world.listRestaurants.execute(.init(limit: 1))
        #expect(one.items.map(\.id.rawValue) == ["r-z"])
        #expect(one.nextCursor != nil)
        let all = try await world.listRestaurants.execute(.init(limit: 500))
        #expect(all.items.count == 5)
        #expect(all.nextCursor == nil)
    }

    @Test(arguments: [5.0001, -0.0001, Double.nan, Double.infinity])
    func listRefusesMinRatingOutside0To5(_ minRating: Double) async throws {
        let world = World()
        await expectInvalidInput("minRating") { try await world.listRestaurants.execute(.init(minRating: minRating)) }
    }

    @Test(arguments: [0, 5])
    func listRefusesMaxPriceLevelOutside1To4(_ level: Int) async throws {
        let world = World()
        await expectInvalidInput("maxPriceLevel") { try await world.listRestaurants.execute(.init(maxPriceLevel: level)) }
    }

    @Test func listRefusesBlankCuisineFilter() async throws {
        let world = World()
        await expectInvalidInput("cuisine") { try await world.listRestaurants.execute(.init(cuisine: "  ")) }
    }

    @Test(arguments: [1, 2, 3, 4, 7])
    func listPagingVisitsEveryRowExactlyOnceInOrder(_ limit: Int) async throws {
        let world = World()
        try await seedRanked(world)
        try await world.insertRestaurant(id: "r-t1", name: "Tie", ratingTotal: 3, reviewCount: 1)
        try await world.insertRestaurant(id: "r-t2", name: "Tie", ratingTotal: 3, reviewCount: 1)
        try await world.insertRestaurant(id: "r-bad", name: "Invalid", priceLevel: 9)
        let everything = try await world.listRestaurants.execute(.init(limit: 500)).items.map(\.id)
        #expect(everything.count == 7)
        let pages = try await collectPages { cursor in
            try await world.listRestaurants.execute(.init(limit: limit, cursor: cursor))
        }
        let visited = pages.flatMap(\.items).map(\.id)
        #expect(visited == everything)
        #expect(pages.allSatisfy { $0.items.count <= limit })
        #expect(pages.last?.nextCursor == nil)
        #expect(pages.count == (7 + limit - 1) / limit)
    }

    @Test func listPagingWithFiltersKeepsTheFilterOnLaterPages() async throws {
        let world = World()
        for index in 0..<6 {
            try await world.insertRestaurant(id: "t-\(index)", name: "Thai \(index)", cuisine: "Thai", ratingTotal: index % 5, reviewCount: 1)
            try await world.insertRestaurant(id: "g-\(index)", name: "Greek \(index)", cuisine: "Greek", ratingTotal: index % 5, reviewCount: 1)
        }
        let pages = try await collectPages { cursor in
            try await world.listRestaurants.execute(.init(cuisine: "thai", limit: 2, cursor: cursor))
        }
        let visited = pages.flatMap(\.items)
        #expect(visited.count == 6)
        #expect(Set(visited.map(\.id)).count == 6)
        #expect(visited.allSatisfy { $0.cuisine == "Thai" })
    }

    @Test(arguments: ["garbage", "", "zz", "abc", "52", String(repeating: "52", count: 600)])
    func listRefusesAGarbageCursorNamingCursor(_ token: String) async throws {
        let world = World()
        try await seedRanked(world)
        await expectInvalidInput("cursor") {
            try await world.listRestaurants.execute(.init(cursor: PageCursor(token: token)))
        }
    }

    @Test func listRefusesACursorFromTheFeed() async throws {
        let world = World()
        try await seedRanked(world)
        let feedCursor = try #require(try await world.loadFeed.execute(limit: 1).nextCursor)
        await expectInvalidInput("cursor") {
            try await world.listRestaurants.execute(.init(cursor: feedCursor))
        }
    }

    @Test func listRefusesACursorFromReviewsOrOrders() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let user = try await world.makeUser()
        try await world.review(restaurant.id, by: user.id, ratings: [4, 5])
        let reviewCursor = try #require(try await world.getReviews.execute(restaurantId: restaurant.id, limit: 1).nextCursor)
        await expectInvalidInput("cursor") {
            try await world.listRestaurants.execute(.init(cursor: reviewCursor))
        }
    }

    @Test func listRefusesACursorFromAnotherDataSet() async throws {
        let source = World()
        try await seedRanked(source)
        let foreign = try #require(try await source.listRestaurants.execute(.init(limit: 1)).nextCursor)
        let world = World()
        try await world.insertRestaurant(id: "elsewhere", name: "Elsewhere")
        await expectInvalidInput("cursor") {
            try await world.listRestaurants.execute(.init(cursor: foreign))
        }
    }

    // MARK: Cursors the service issued itself must be accepted back.

    @Test func listPagingSurvivesANameContainingTheUnitSeparator() async throws {
        let world = World()
        // U+001F is not white space, so it passes name validation.
        let odd = try await world.makeRestaurant(name: "Unit\u{1F}Separator")
        _ = try await world.makeRestaurant(name: "Zebra")
        let first = try await world.listRestaurants.execute(.init(limit: 1))
        #expect(first.items.map(\.id) == [odd.id])
        let cursor = try #require(first.nextCursor)
        let second = try await world.listRestaurants.execute(.init(limit: 1, cursor: cursor))
        #expect(second.items.map(\.name) == ["Zebra"])
        #expect(second.nextCursor == nil)
    }

    @Test func listPagingSurvivesALongMultiByteName() async throws {
        let world = World()
        // 100 characters (each a flag of 8 UTF-8 bytes) is a valid name.
        let flags = String(repeating: "🇮🇹", count: 100)
        #expect(flags.count == 100)
        let flagged = try await world.makeRestaurant(name: flags)
        // U+1F422 (F0 9F 90 A2) sorts byte-wise after the flag letters (F0 9F 87 AE).
        _ = try await world.makeRestaurant(name: "\u{1F422} Turtle")
        let first = try await world.listRestaurants.execute(.init(limit: 1))
        #expect(first.items.map(\.id) == [flagged.id])
        let cursor = try #require(first.nextCursor)
        #expect(cursor.token.utf8.count <= PageCursor.maximumTokenLength)
        let second = try await world.listRestaurants.execute(.init(limit: 1, cursor: cursor))
        #expect(second.items.map(\.name) == ["\u{1F422} Turtle"])
        #expect(second.nextCursor == nil)
    }

    @Test func listPagingVisitsCanonicallyEquivalentNamesOnceInByteOrder() async throws {
        let world = World()
        // "é" precomposed (C3 A9) and decomposed (65 CC 81) are == as Swift Strings but differ
        // byte-wise; with "f" (66) the rank order becomes a cycle.
        try await world.insertRestaurant(id: "r-1", name: "\u{E9}")
        try await world.insertRestaurant(id: "r-2", name: "e\u{301}")
        try await world.insertRestaurant(id: "r-3", name: "f")
        let pages = try await collectPages(maxPages: 10) { cursor in
            try await world.listRestaurants.execute(.init(limit: 1, cursor: cursor))
        }
        let visited = pages.flatMap(\.items).map(\.id.rawValue)
        // Byte order: 65 CC 81 ("e\u{301}") < 66 ("f") < C3 A9 ("\u{E9}").
        #expect(visited == ["r-2", "r-3", "r-1"])
    }
}

@Suite("SearchRestaurants")
struct SearchRestaurantsTests {
    private func seed(_ world: World) async throws {
        try await world.insertRestaurant(id: "s-1", name: "Pizza Palace", cuisine: "Italian", ratingTotal: 4, reviewCount: 1)
        try await world.insertRestaurant(id: "s-2", name: "Bangkok Street", cuisine: "Thai", ratingTotal: 5, reviewCount: 1)
        try await world.insertRestaurant(id: "s-3", name: "Napoli", cuisine: "Pizza", ratingTotal: 5, reviewCount: 1)
        try await world.insertRestaurant(id: "s-4", name: "Burger Barn", cuisine: "American", ratingTotal: 3, reviewCount: 1)
        try await world.insertRestaurant(id: "s-5", name: "Deep Dish PIZZA", cuisine: "American", ratingTotal: 4, reviewCount: 1)
        try await world.insertRestaurant(id: "s-bad", name: "Pizza Invalid", priceLevel: 0)
    }

    @Test func searchMatchesNameOrCuisineCaseInsensitivelySortedLikeTheListing() async throws {
        let world = World()
        try await seed(world)
        let found = try await world.searchRestaurants.execute(query: "pIzZa")
        // Napoli (5, cuisine match), Deep Dish PIZZA (4, "D"), Pizza Palace (4, "P").
        #expect(found.map(\.id.rawValue) == ["s-3", "s-5", "s-1"])
    }

    @Test func searchMatchesSubstringsInTheMiddle() async throws {
        let world = World()
        try await seed(world)
        #expect(try await world.searchRestaurants.execute(query: "kok str").map(\.id.rawValue) == ["s-2"])
        #expect(try await world.searchRestaurants.execute(query: "ERICA").map(\.id.rawValue) == ["s-5", "s-4"])
    }

    @Test func searchTrimsTheQuery() async throws {
        let world = World()
        try await seed(world)
        #expect(try await world.searchRestaurants.execute(query: "  thai \n").map(\.id.rawValue) == ["s-2"])
    }

    @Test func searchWithNoMatchIsEmpty() async throws {
        let world = World()
        try await seed(world)
        #expect(try await world.searchRestaurants.execute(query: "sushi").isEmpty)
    }

    @Test func searchNeverReturnsInvalidRestaurants() async throws {
        let world = World()
        try await seed(world)
        let found = try await world.searchRestaurants.execute(query: "invalid")
        #expect(found.isEmpty)
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func searchRefusesBlankQuery(_ query: String) async throws {
        let world = World()
        await expectInvalidInput("query") { try await world.searchRestaurants.execute(query: query) }
    }

    @Test func searchRefusesQueryLongerThan100Characters() async throws {
        let world = World()
        await expectInvalidInput("query") { try await world.searchRestaurants.execute(query: string(length: 101)) }
        #expect(try await world.searchRestaurants.execute(query: string(length: 100)).isEmpty)
    }

    @Test func searchHonoursTheLimit() async throws {
        let world = World()
        try await seed(world)
        #expect(try await world.searchRestaurants.execute(query: "pizza", limit: 2).map(\.id.rawValue) == ["s-3", "s-5"])
        #expect(try await world.searchRestaurants.execute(query: "pizza", limit: 1).map(\.id.rawValue) == ["s-3"])
    }

    @Test func searchDefaultLimitIs50() async throws {
        let world = World()
        for index in 0..<60 {
            try await world.insertRestaurant(id: "m-\(100 + index)", name: "Match \(100 + index)")
        }
        #expect(try await world.searchRestaurants.execute(query: "match").count == 50)
    }

    @Test(arguments: [0, 501])
    func searchRefusesLimitOutside1To500(_ limit: Int) async throws {
        let world = World()
        await expectInvalidInput("limit") { try await world.searchRestaurants.execute(query: "pizza", limit: limit) }
    }
}

import Domain
import RestaurantTesting
import Testing

@Suite("LoadFeed")
struct LoadFeedTests {
    @Test func feedListsRestaurantsNewestCreatedFirstWithTitleAndImage() async throws {
        let world = World()
        let first = try await world.makeRestaurant(name: "First", imageUrl: "https://img.example/1.jpg")
        world.advance(minutes: 1)
        let second = try await world.makeRestaurant(name: "Second")
        world.advance(minutes: 1)
        let third = try await world.makeRestaurant(name: "  Third ", imageUrl: "https://img.example/3.jpg")
        let page = try await world.loadFeed.execute()
        #expect(page.items.map(\.id) == [third.id, second.id, first.id])
        #expect(page.items.map(\.title) == ["Third", "Second", "First"])
        #expect(page.items.map(\.imageUrl) == ["https://img.example/3.jpg", nil, "https://img.example/1.jpg"])
        #expect(page.items.first == FeedItem(restaurant: third))
        #expect(page.nextCursor == nil)
    }

    @Test func feedOrderIgnoresRatingsAndNames() async throws {
        let world = World()
        try await world.insertRestaurant(id: "old-best", name: "Aaa", ratingTotal: 5, reviewCount: 1, createdAt: World.start.adding(days: -3))
        try await world.insertRestaurant(id: "new-worst", name: "Zzz", createdAt: World.start)
        try await world.insertRestaurant(id: "middle", name: "Mmm", ratingTotal: 3, reviewCount: 1, createdAt: World.start.adding(days: -1))
        #expect(try await world.loadFeed.execute().items.map(\.id.rawValue) == ["new-worst", "middle", "old-best"])
    }

    @Test func feedBreaksCreationTimeTiesByIdDescending() async throws {
        let world = World()
        try await world.insertRestaurant(id: "b", name: "B")
        try await world.insertRestaurant(id: "c", name: "C")
        try await world.insertRestaurant(id: "a", name: "A")
        #expect(try await world.loadFeed.execute().items.map(\.id.rawValue) == ["c", "b", "a"])
    }

    @Test func feedNeverShowsInvalidRestaurants() async throws {
        let world = World()
        try await world.insertRestaurant(id: "ok", name: "Ok")
        try await world.insertRestaurant(id: "bad-price", name: "Bad", priceLevel: 9)
        try await world.insertRestaurant(id: "bad-lat", name: "Bad", latitude: -90.5)
        try await world.insertRestaurant(id: "bad-name", name: "")
        #expect(try await world.loadFeed.execute().items.map(\.id.rawValue) == ["ok"])
    }

    @Test(arguments: [1, 2, 3, 6])
    func feedPagingVisitsEveryValidRestaurantOnceNewestFirst(_ limit: Int) async throws {
        let world = World()
        var created: [RestaurantID] = []
        for index in 0..<6 {
            created.append(try await world.makeRestaurant(name: "R\(index)").id)
            if index % 2 == 0 { world.advance(milliseconds: 1) } // pairs share a timestamp
            if index == 3 { try await world.insertRestaurant(id: "zz-invalid", name: "Invalid", priceLevel: 0) }
        }
        let pages = try await collectPages { cursor in
            try await world.loadFeed.execute(limit: limit, cursor: cursor)
        }
        let visited = pages.flatMap(\.items).map(\.id)
        #expect(visited == created.reversed())
        #expect(pages.last?.nextCursor == nil)
        #expect(pages.allSatisfy { $0.items.count <= limit })
    }

    @Test func feedDefaultLimitIs50() async throws {
        let world = World()
        for index in 0..<51 {
            try await world.insertRestaurant(id: "f-\(1000 + index)", name: "R\(index)")
        }
        let page = try await world.loadFeed.execute()
        #expect(page.items.count == 50)
        let next = try #require(page.nextCursor)
        let rest = try await world.loadFeed.execute(cursor: next)
        #expect(rest.items.map(\.id.rawValue) == ["f-1000"])
        #expect(rest.nextCursor == nil)
    }

    @Test func emptyFeedHasNoItemsAndNoCursor() async throws {
        let world = World()
        let page = try await world.loadFeed.execute()
        #expect(page.items.isEmpty)
        #expect(page.nextCursor == nil)
    }

    @Test(arguments: [0, 501, -5])
    func feedRefusesLimitOutside1To500(_ limit: Int) async throws {
        let world = World()
        await expectInvalidInput("limit") { try await world.loadFeed.execute(limit: limit) }
    }

    @Test func feedAcceptsLimits1And500() async throws {
        let world = World()
        _ = try await world.makeRestaurant()
        #expect(try await world.loadFeed.execute(limit: 1).items.count == 1)
        #expect(try await world.loadFeed.execute(limit: 500).items.count == 1)
    }

    @Test func feedRefusesGarbageAndForeignCursors() async throws {
        let world = World()
        _ = try await world.makeRestaurant(name: "A")
        _ = try await world.makeRestaurant(name: "B")
        let listCursor = try #require(try await world.listRestaurants.execute(.init(limit: 1)).nextCursor)
        await expectInvalidInput("cursor") { try await world.loadFeed.execute(cursor: listCursor) }
        await expectInvalidInput("cursor") { try await world.loadFeed.execute(cursor: PageCursor(token: "feed")) }
        await expectInvalidInput("cursor") { try await world.loadFeed.execute(cursor: PageCursor(token: "46")) } // "F" alone
    }
}

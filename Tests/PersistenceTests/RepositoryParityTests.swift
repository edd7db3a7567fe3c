import Domain
import Persistence
import RestaurantTesting
import SeededRandom
import Testing

/// The SQLite repositories must give exactly what the in-memory reference gives. Every test runs
/// on both backends and compares with an expectation computed from the Domain's own rules (which
/// the in-memory actors implement directly), or with an in-memory reference fed the same data.
@Suite(.postgres) struct RepositoryParityTests {
    // MARK: ListRestaurants

    /// Ties in rating (4.5 as 9/2 and 18/4; 4/3 as 4/3 and 8/6), ties in name, names that differ
    /// only in case or by a prefix, a non-ASCII name, and five invalid restaurants.
    static let rankedRestaurants: [Restaurant] = [
        makeRestaurant("r-09", name: "Bistro 2", ratingTotal: 9, reviewCount: 2),
        makeRestaurant("r-03", name: "Bistro", ratingTotal: 9, reviewCount: 2),
        makeRestaurant("r-08", name: "Aardvark"),
        makeRestaurant("r-07", name: "Apple", ratingTotal: 4, reviewCount: 3),
        makeRestaurant("r-10", name: "Alpha", priceLevel: 9, ratingTotal: 5, reviewCount: 1),
        makeRestaurant("r-01", name: "Bistro", ratingTotal: 18, reviewCount: 4),
        makeRestaurant("r-11", name: "Beta", address: "   ", ratingTotal: 5, reviewCount: 1),
        makeRestaurant("r-04", name: "Éclair", ratingTotal: 9, reviewCount: 2),
        makeRestaurant("r-12", name: "Gamma", latitude: 91, ratingTotal: 5, reviewCount: 1),
        makeRestaurant("r-02", name: "bistro", ratingTotal: 9, reviewCount: 2),
        makeRestaurant("r-13", name: " \t ", ratingTotal: 5, reviewCount: 1),
        makeRestaurant("r-06", name: "Apple", ratingTotal: 8, reviewCount: 6),
        makeRestaurant("r-14", name: "Delta", ratingTotal: 12, reviewCount: 2),
        makeRestaurant("r-05", name: "Zed", ratingTotal: 5, reviewCount: 1),
    ]
    /// Rating 5; then 4.5 by name bytes ("B" < "b" < "É"; "Bistro" < "Bistro 2") and id; then
    /// 4/3 by id; then 0. No invalid restaurant (r-10…r-14).
    static let rankedIds = ["r-05", "r-01", "r-03", "r-09", "r-02", "r-04", "r-06", "r-07", "r-08"]

    @Test(arguments: Backend.allCases)
    func listingRanksByRatingThenNameBytesThenIdAndLeavesOutInvalidRestaurants(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        for restaurant in Self.rankedRestaurants { try await world.restaurants.insert(restaurant) }
        #expect(rankSorted(Self.rankedRestaurants.filter(\.isValid)).map(\.id.rawValue) == Self.rankedIds)

        let listed = try await world.restaurants.list(RestaurantQuery(), after: nil, limit: 500)
        #expect(listed.map(\.id.rawValue) == Self.rankedIds)
        let page = try await ListRestaurants(restaurants: world.restaurants).execute(.init(limit: 500))
        #expect(page.items.map(\.id.rawValue) == Self.rankedIds)
        #expect(page.nextCursor == nil)
        // Listed values are the stored ones, not copies with other fields.
        let byId = Dictionary(uniqueKeysWithValues: Self.rankedRestaurants.map { ($0.id, $0) })
        #expect(listed.allSatisfy { byId[$0.id] == $0 })
    }

    @Test(arguments: Backend.allCases, [1, 2, 3, 4, 8, 9])
    func pagingVisitsEveryListedRestaurantOnceInRankOrder(_ backend: Backend, limit: Int) async throws {
        let world = try await World.open(backend)
        for restaurant in Self.rankedRestaurants { try await world.restaurants.insert(restaurant) }
        let listRestaurants = ListRestaurants(restaurants: world.restaurants)

        let pages = try await allPages { cursor in try await listRestaurants.execute(.init(limit: limit, cursor: cursor)) }
        #expect(pages.flatMap { $0 }.map(\.id.rawValue) == Self.rankedIds)
        #expect(pages.allSatisfy { $0.count <= limit })
        #expect(pages.dropLast().allSatisfy { $0.count == limit })

        // The repository itself, continued by rank key.
        var visited: [String] = []
        var after: RestaurantRankKey?
        while true {
            let rows = try await world.restaurants.list(RestaurantQuery(), after: after, limit: limit)
            visited += rows.map(\.id.rawValue)
            guard rows.count == limit, let last = rows.last else { break }
            after = RestaurantRankKey(last)
        }
        #expect(visited == Self.rankedIds)
    }

    static let filterRestaurants: [Restaurant] = [
        makeRestaurant("f-1", name: "Luigi", cuisine: "Italian", priceLevel: 1, ratingTotal: 5, reviewCount: 1),
        makeRestaurant("f-2", name: "Mario", cuisine: "ITALIAN", priceLevel: 3, ratingTotal: 9, reviewCount: 2),
        makeRestaurant("f-3", name: "Nonna", cuisine: "italian", priceLevel: 2, ratingTotal: 13, reviewCount: 3),
        makeRestaurant("f-4", name: "Olive", cuisine: "Italiano", priceLevel: 1, ratingTotal: 5, reviewCount: 1),
        makeRestaurant("f-5", name: "Pad", cuisine: "Thai", priceLevel: 2, ratingTotal: 9, reviewCount: 2),
        makeRestaurant("f-6", name: "Quattro", cuisine: "Italian", priceLevel: 9, ratingTotal: 5, reviewCount: 1),
        makeRestaurant("f-7", name: "Roma", cuisine: "Italian", address: "", ratingTotal: 5, reviewCount: 1),
        makeRestaurant("f-8", name: "Sole", cuisine: "Italian", priceLevel: 4),
        makeRestaurant("f-9", name: "Café", cuisine: "FRANÇAIS", priceLevel: 2, ratingTotal: 4, reviewCount: 1),
    ]

    @Test(arguments: Backend.allCases)
    func filtersSelectCuisineIgnoringCaseMinimumRatingAndMaximumPrice(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        for restaurant in Self.filterRestaurants { try await world.restaurants.insert(restaurant) }
        let listRestaurants = ListRestaurants(restaurants: world.restaurants)
        func ids(_ input: ListRestaurants.Input) async throws -> [String] {
            try await listRestaurants.execute(input).items.map(\.id.rawValue)
        }
        #expect(try await ids(.init(cuisine: "iTaLiAn")) == ["f-1", "f-2", "f-3", "f-8"])
        #expect(try await ids(.init(cuisine: "ITALIAN", limit: 2)) == ["f-1", "f-2"])
        #expect(try await ids(.init(cuisine: "français")) == ["f-9"])
        #expect(try await ids(.init(cuisine: "Ital")) == [])
        #expect(try await ids(.init(minRating: 4.5)) == ["f-1", "f-4", "f-2", "f-5"])
        #expect(try await ids(.init(minRating: 13.0 / 3.0)) == ["f-1", "f-4", "f-2", "f-5", "f-3"])
        #expect(try await ids(.init(minRating: 5)) == ["f-1", "f-4"])
        #expect(try await ids(.init(minRating: 0)) == ["f-1", "f-4", "f-2", "f-5", "f-3", "f-9", "f-8"])
        #expect(try await ids(.init(maxPriceLevel: 2)) == ["f-1", "f-4", "f-5", "f-3", "f-9"])
        #expect(try await ids(.init(maxPriceLevel: 1)) == ["f-1", "f-4"])
        #expect(try await ids(.init(cuisine: "italian", minRating: 4.4, maxPriceLevel: 3)) == ["f-1", "f-2"])
        #expect(try await ids(.init(minRating: 4.5, maxPriceLevel: 1)) == ["f-1", "f-4"])
        // Every combination agrees with the Domain's rule.
        for cuisine in [nil, "italian", "THAI", "Italiano"] {
            for minRating in [nil, 0.0, 4.0, 4.5, 5.0] {
                for maxPriceLevel in [nil, 1, 2, 3, 4] {
                    let query = RestaurantQuery(cuisine: cuisine, minRating: minRating, maxPriceLevel: maxPriceLevel)
                    let expected = rankSorted(Self.filterRestaurants.filter(query.matches)).map(\.id.rawValue)
                    #expect(try await world.restaurants.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected)
                    #expect(try await ids(.init(cuisine: cuisine, minRating: minRating, maxPriceLevel: maxPriceLevel)) == expected)
                }
            }
        }
    }

    // MARK: SearchRestaurants

    static let searchNames = [
        "Café Central", "CAFÉ Noir", "Straße 5", "Joe's \"Best\"", "50% Off", "Star*Bar", "Under_score",
        "Ōsaka Ramen", "Mañana", "Crêperie", "Sushi Go", "Trattoria", "Noodle House", "Bistro", "Pho 99",
        "Taquería", "Ça Va", "ÆBLE", "Grill & Co", "a", "Zz",
    ]
    static let searchCuisines = [
        "Italian", "ITALIAN", "Japanese", "Mexican", "Français", "Fusion*", "100% Vegan", "\"Quoted\"", "Thai",
        "Crêpes", "ramen",
    ]

    /// About 100 restaurants drawn deterministically from the names and cuisines above, some
    /// invalid, with ratings that tie.
    static func generatedRestaurants(seed: UInt64 = 2026) -> [Restaurant] {
        var random = SplitMix64(seed: seed)
        return (0..<100).map { index in
            let base = searchNames.randomElement(using: &random)!
            let name = Int.random(in: 0..<3, using: &random) == 0 ? base : base + " " + String(Int.random(in: 0..<20, using: &random))
            return makeRestaurant(
                "g-\(Int.random(in: 0..<1000, using: &random))-\(index)", name: name, cuisine: searchCuisines.randomElement(using: &random)!,
                priceLevel: index % 13 == 0 ? 9 : 1 + Int.random(in: 0..<4, using: &random),
                address: index % 17 == 0 ? " " : "\(index) Main St",
                ratingTotal: Int.random(in: 0..<4, using: &random) * 5, reviewCount: Int.random(in: 0..<4, using: &random) == 0 ? 0 : 5,
                createdAt: noon.adding(milliseconds: Int64(Int.random(in: 0..<10, using: &random)))
            )
        }
    }

    /// Fixed queries (1, 2, 3 and more characters, quotes, wildcards of SQL LIKE and FTS, case and
    /// non-ASCII) plus substrings of generated names in original, lower and upper case.
    static func searchQueries(_ restaurants: [Restaurant]) -> [String] {
        var queries = [
            "a", "A", "é", "É", "ß", "ç", "Ç", "%", "*", "_", "\"", "'", " ", "&", "9",
            "ca", "CA", "fé", "ÉN", "\"b", "% ", "r*", "e_", "ss",
            "caf", "CAF", "café", "CAFÉ", "Café", "cafe", "strasse", "STRASSE", "straße", "STRAßE",
            "\"best\"", "joe's \"", "s \"b", "\"\"", "50%", "% off", "0% o", "r*b", "star*", "*bar", "_sc",
            "under_", "ōsaka", "ŌSAKA", "osaka", "mañ", "MAÑANA", "crêp", "CRÊPE", "æble", "Æb", "ça v", "ÇA",
            "ital", "ITALIAN", "italiano", "ramen", "ra", "men", "100", "0% v", "fusion*", "\"quoted\"",
            "quoted", "thai", "& co", "pho 9", "xyz", "zzz", "no match at all",
        ]
        var random = SplitMix64(seed: 7)
        for restaurant in restaurants.prefix(40) {
            let characters = Array(restaurant.name)
            for length in [1, 2, 3, 4, 6] where length <= characters.count {
                let start = Int.random(in: 0..<characters.count - length + 1, using: &random)
                let piece = String(characters[start..<(start + length)])
                queries += [piece, piece.lowercased(), piece.uppercased()]
            }
        }
        var seen = Set<String>()
        return queries.filter { seen.insert($0).inserted }
    }

    @Test(arguments: Backend.allCases)
    func searchFindsSubstringsOfNameOrCuisineIgnoringCaseLikeTheReference(_ backend: Backend) async throws {
        let restaurants = Self.generatedRestaurants()
        let world = try await World.open(backend)
        let reference = InMemoryRestaurantRepository()
        for restaurant in restaurants {
            try await world.restaurants.insert(restaurant)
            try await reference.insert(restaurant)
        }
        let queries = Self.searchQueries(restaurants)
        #expect(queries.count > 150)
        for text in queries {
            let query = RestaurantQuery(text: text)
            let expected = rankSorted(restaurants.filter(query.matches)).map(\.id.rawValue)
            #expect(await reference.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected, "query \(text)")
            #expect(try await world.restaurants.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected, "query \(text)")
            // A small limit cuts the same ranking.
            #expect(try await world.restaurants.list(query, after: nil, limit: 3).map(\.id.rawValue) == Array(expected.prefix(3)), "query \(text)")
            // Paging through a search visits each match once.
            if let third = expected.dropFirst(2).first, let key = restaurants.first(where: { $0.id.rawValue == third }).map(RestaurantRankKey.init) {
                #expect(try await world.restaurants.list(query, after: key, limit: 500).map(\.id.rawValue) == Array(expected.dropFirst(3)), "query \(text)")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func searchTreatsQuotesPercentStarAndUnderscoreLiterallyAndLowercasesLikeTheDomain(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurants = [
            makeRestaurant("s-1", name: "Café Central", cuisine: "French", ratingTotal: 5, reviewCount: 1),
            makeRestaurant("s-2", name: "Joe's \"Best\" Diner", cuisine: "American", ratingTotal: 4, reviewCount: 1),
            makeRestaurant("s-3", name: "50% Off", cuisine: "Pizza", ratingTotal: 3, reviewCount: 1),
            makeRestaurant("s-4", name: "Star*Bar", cuisine: "Bar", ratingTotal: 2, reviewCount: 1),
            makeRestaurant("s-5", name: "Under_score", cuisine: "Fusion", ratingTotal: 1, reviewCount: 1),
            makeRestaurant("s-6", name: "Straße", cuisine: "German"),
            makeRestaurant("s-7", name: "Plain", cuisine: "Thai"),
        ]
        for restaurant in restaurants { try await world.restaurants.insert(restaurant) }
        let search = SearchRestaurants(restaurants: world.restaurants)
        func ids(_ query: String) async throws -> [String] {
            try await search.execute(query: query, limit: 500).map(\.id.rawValue)
        }
        #expect(try await ids("CAFÉ") == ["s-1"])
        #expect(try await ids("É") == ["s-1"])
        #expect(try await ids("cafe") == [])
        #expect(try await ids("\"") == ["s-2"])
        #expect(try await ids("\"b") == ["s-2"])
        #expect(try await ids("\"best\"") == ["s-2"])
        #expect(try await ids("'s \"") == ["s-2"])
        #expect(try await ids("%") == ["s-3"])
        #expect(try await ids("0%") == ["s-3"])
        #expect(try await ids("50% o") == ["s-3"])
        #expect(try await ids("*") == ["s-4"])
        #expect(try await ids("r*b") == ["s-4"])
        #expect(try await ids("star*") == ["s-4"])
        #expect(try await ids("_") == ["s-5"])
        #expect(try await ids("r_s") == ["s-5"])
        #expect(try await ids("ß") == ["s-6"])
        #expect(try await ids("STRAßE") == ["s-6"])
        #expect(try await ids("strasse") == [])
        #expect(try await ids("a") == ["s-1", "s-2", "s-3", "s-4", "s-7", "s-6"])
        #expect(try await ids("ar") == ["s-4"])
        #expect(try await ids("ai") == ["s-7"])
        #expect(try await ids("thai") == ["s-7"])
    }

    /// Lowercasing and Character-wise matching as the Domain defines them: "İ" lowercases to
    /// "i" + U+0307, which is one Character and does not contain "i"; "é" precomposed and
    /// decomposed are the same Character; "e" is not a Character of "é" in either spelling.
    @Test(arguments: Backend.allCases)
    func searchMatchesWholeCharactersAsTheDomainDoes(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurants = [
            makeRestaurant("u-1", name: "İSTANBUL", cuisine: "Kebap", ratingTotal: 5, reviewCount: 1),
            makeRestaurant("u-2", name: "Cafe\u{301} Decomposed", cuisine: "Bar", ratingTotal: 4, reviewCount: 1),
            makeRestaurant("u-3", name: "Caf\u{E9} Precomposed", cuisine: "Bar", ratingTotal: 3, reviewCount: 1),
            makeRestaurant("u-4", name: "Cre\u{300}me", cuisine: "Cre\u{300}perie", ratingTotal: 2, reviewCount: 1),
        ]
        let reference = InMemoryRestaurantRepository()
        for restaurant in restaurants {
            try await world.restaurants.insert(restaurant)
            try await reference.insert(restaurant)
        }
        let queries = [
            "i", "I", "İ", "i\u{307}", "is", "İs", "ist", "İST", "stan",
            "e", "é", "e\u{301}", "É", "E\u{301}", "caf", "cafe", "café", "cafe\u{301}", "CAFÉ", "CAFE\u{301}", "fé ", "fe\u{301} ",
            "cre", "crè", "cre\u{300}", "CRÈME", "è", "e\u{300}", "me", "ème", "erie", "bar", "ba", "r",
        ]
        for text in queries {
            let query = RestaurantQuery(text: text)
            let expected = rankSorted(restaurants.filter(query.matches)).map(\.id.rawValue)
            #expect(await reference.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected, "query \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(try await world.restaurants.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected, "query \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(try await world.restaurants.list(query, after: nil, limit: 1).map(\.id.rawValue) == Array(expected.prefix(1)), "query \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // The cuisine filter compares whole strings as the Domain does (canonical equivalence).
        for cuisine in ["Crèperie", "CRE\u{300}PERIE", "creperie"] {
            let query = RestaurantQuery(cuisine: cuisine)
            let expected = rankSorted(restaurants.filter(query.matches)).map(\.id.rawValue)
            #expect(try await world.restaurants.list(query, after: nil, limit: 500).map(\.id.rawValue) == expected, "cuisine \(cuisine)")
        }
        #expect(rankSorted(restaurants.filter(RestaurantQuery(text: "cafe").matches)).map(\.id.rawValue) == [])
        #expect(rankSorted(restaurants.filter(RestaurantQuery(text: "CAFÉ").matches)).map(\.id.rawValue) == ["u-2", "u-3"])
        // "i̇stanbul" has no Character "i"; "crèperie" has one.
        #expect(rankSorted(restaurants.filter(RestaurantQuery(text: "i").matches)).map(\.id.rawValue) == ["u-4"])
    }

    // MARK: LoadFeed

    static let feedRestaurants: [Restaurant] = [
        makeRestaurant("n-3", name: "Three", createdAt: noon.adding(milliseconds: 5)),
        makeRestaurant("n-1", name: "One", createdAt: noon.adding(milliseconds: 5)),
        makeRestaurant("n-7", name: "Seven", createdAt: noon),
        makeRestaurant("n-2", name: "Two", createdAt: noon.adding(milliseconds: 5)),
        makeRestaurant("n-9", name: "Nine", priceLevel: 0, createdAt: noon.adding(milliseconds: 9)),
        makeRestaurant("n-5", name: "Five", createdAt: noon.adding(days: -3)),
        makeRestaurant("n-8", name: "Eight", address: "", createdAt: noon.adding(milliseconds: 5)),
        makeRestaurant("n-4", name: "Four", createdAt: noon.adding(milliseconds: 1), imageUrl: "https://img/4"),
        makeRestaurant("n-6", name: "Six", createdAt: noon),
        makeRestaurant("n-10", name: "Ten", createdAt: noon.adding(milliseconds: 1)),
    ]
    /// Newest first; equal times by id descending ("n-4" > "n-10" byte-wise); invalid n-8, n-9 left out.
    static let feedIds = ["n-3", "n-2", "n-1", "n-4", "n-10", "n-7", "n-6", "n-5"]

    @Test(arguments: Backend.allCases, [1, 2, 3, 7, 8, 50])
    func feedIsNewestFirstWithTiesByIdDescendingAndPagesVisitEachOnce(_ backend: Backend, limit: Int) async throws {
        let world = try await World.open(backend)
        for restaurant in Self.feedRestaurants { try await world.restaurants.insert(restaurant) }
        #expect(recencySorted(Self.feedRestaurants.filter(\.isValid)).map(\.id.rawValue) == Self.feedIds)

        let feed = LoadFeed(restaurants: world.restaurants)
        let pages = try await allPages { cursor in try await feed.execute(limit: limit, cursor: cursor) }
        #expect(pages.flatMap { $0 }.map(\.id.rawValue) == Self.feedIds)
        #expect(pages.dropLast().allSatisfy { $0.count == limit })
        #expect(pages.flatMap { $0 }.first { $0.id.rawValue == "n-4" }?.imageUrl == "https://img/4")

        var visited: [String] = []
        var after: RecencyKey<Restaurant>?
        while true {
            let rows = try await world.restaurants.newest(after: after, limit: limit)
            visited += rows.map(\.id.rawValue)
            guard rows.count == limit, let last = rows.last else { break }
            after = RecencyKey(createdAt: last.createdAt, id: last.id)
        }
        #expect(visited == Self.feedIds)
    }

    // MARK: Reviews

    @Test(arguments: Backend.allCases, [1, 4, 25])
    func reviewsAreNewestFirstPagedCountedExactlyAndRatingStaysTheMean(_ backend: Backend, limit: Int) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let other = try await world.makeRestaurant(name: "Other")
        var authors: [UserID] = []
        for index in 0..<3 { authors.append(try await world.makeUser(name: "Critic\(index)").id) }
        var written: [Review] = []
        for index in 0..<25 {
            // Three reviews share each time.
            world.clock.set(noon.adding(milliseconds: Int64(index / 3) * 1000))
            let output = try await world.addReview.execute(.init(userId: authors[index % 3], restaurantId: restaurant.id, rating: 1 + (index * 7) % 5, text: "visit \(index) — “ok”"))
            written.append(output.review)
            #expect(output.restaurantRating == Double(written.map(\.rating).reduce(0, +)) / Double(written.count))
        }
        _ = try await world.addReview.execute(.init(userId: authors[0], restaurantId: other.id, rating: 5, text: "elsewhere"))
        let expected = written.sorted { RecencyKey(createdAt: $0.createdAt, id: $0.id).precedes(RecencyKey(createdAt: $1.createdAt, id: $1.id)) }
        #expect(expected.map(\.id) == written.reversed().map(\.id))

        let pages = try await allPages { cursor in try await world.getReviews.execute(restaurantId: restaurant.id, limit: limit, cursor: cursor) }
        #expect(pages.flatMap { $0 } == expected)
        #expect(pages.dropLast().allSatisfy { $0.count == limit })

        for since in [noon.adding(milliseconds: -1), noon, noon.adding(milliseconds: 999), noon.adding(milliseconds: 1000), noon.adding(milliseconds: 7999), noon.adding(milliseconds: 8000)] {
            let newer = written.filter { $0.createdAt > since }.count
            for atMost in [0, 1, 10, 20, 100] {
                let count = try await world.restaurants.reviewCount(of: restaurant.id, createdAfter: since, atMost: atMost)
                #expect(count == min(newer, atMost), "since \(since), at most \(atMost)")
            }
        }
        #expect(try await world.restaurants.reviewCount(of: restaurant.id, createdAfter: noon, atMost: 100) == 22)
        #expect(try await world.restaurants.reviewCount(of: restaurant.id, createdAfter: noon, atMost: 20) == 20)
        #expect(try await world.restaurants.reviewCount(of: restaurant.id, createdAfter: noon.adding(milliseconds: 7000), atMost: 100) == 1)
        #expect(try await world.restaurants.reviewCount(of: RestaurantID("nope"), createdAfter: noon.adding(days: -1), atMost: 100) == 0)

        let stored = try #require(try await world.restaurants.restaurant(id: restaurant.id))
        #expect(stored.reviewCount == 25)
        #expect(stored.ratingTotal == written.map(\.rating).reduce(0, +))
        #expect(stored.rating == Double(stored.ratingTotal) / 25)

        let unknown = Review(id: ReviewID("x"), restaurantId: RestaurantID("nope"), userId: authors[0], rating: 5, text: "", createdAt: noon)
        #expect(try await world.restaurants.addReview(unknown) == nil)
        #expect(try await world.restaurants.reviews(of: RestaurantID("nope"), after: nil, limit: 500).isEmpty)
    }

    // MARK: Favorites

    @Test(arguments: Backend.allCases)
    func favoritesAreNewestSavedFirstWithTheLaterSaveFirstOnEqualTimes(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let user = try await world.makeUser()
        let other = try await world.makeUser(name: "Other")
        var ids: [RestaurantID] = []
        for index in 0..<7 { ids.append(try await world.makeRestaurant(name: "R\(index)").id) }
        let t0 = noon, t1 = noon.adding(milliseconds: 1), t2 = noon.adding(milliseconds: 2)
        let favorites = world.favorites
        func save(_ index: Int, at time: Timestamp, limit: Int = 5) async throws -> FavoriteAddOutcome {
            try await favorites.add(Favorite(userId: user.id, restaurantId: ids[index], savedAt: time), limit: limit)
        }
        #expect(try await save(1, at: t0) == .added(count: 1))
        #expect(try await save(2, at: t0) == .added(count: 2))
        #expect(try await save(3, at: t2) == .added(count: 3))
        #expect(try await save(4, at: t1) == .added(count: 4))
        #expect(try await save(5, at: t2) == .added(count: 5))
        #expect(try await save(3, at: t2.adding(days: 1)) == .alreadySaved(count: 5))
        #expect(try await save(6, at: t2) == .limitReached(count: 5))
        #expect(try await favorites.add(Favorite(userId: other.id, restaurantId: ids[1], savedAt: t0), limit: 5) == .added(count: 1))

        let expected = [(5, t2), (3, t2), (4, t1), (2, t0), (1, t0)].map { Favorite(userId: user.id, restaurantId: ids[$0.0], savedAt: $0.1) }
        #expect(try await favorites.favorites(of: user.id) == expected)

        #expect(try await favorites.remove(userId: user.id, restaurantId: ids[4]) == 4)
        #expect(try await favorites.remove(userId: user.id, restaurantId: ids[4]) == 4)
        #expect(try await favorites.remove(userId: user.id, restaurantId: RestaurantID("nope")) == 4)
        #expect(try await favorites.contains(userId: user.id, restaurantId: ids[4]) == false)
        #expect(try await favorites.contains(userId: user.id, restaurantId: ids[1]))
        #expect(try await favorites.contains(userId: other.id, restaurantId: ids[2]) == false)
        #expect(try await favorites.favorites(of: user.id) == expected.filter { $0.restaurantId != ids[4] })
        #expect(try await favorites.favorites(of: UserID("nobody")) == [])
        // Saved again after removal: now the newest at its equal time.
        #expect(try await save(4, at: t2) == .added(count: 5))
        #expect(try await favorites.favorites(of: user.id).map(\.restaurantId) == [ids[4], ids[5], ids[3], ids[2], ids[1]])
        #expect(try await world.removeFavorite.execute(userId: user.id, restaurantId: ids[5]) == 4)
    }

    // MARK: Menu and orders

    @Test(arguments: Backend.allCases)
    func menuIsByNameBytesThenIdAndRestockOfUnknownItemIsNil(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let other = try await world.makeRestaurant(name: "Other")
        func item(_ id: String, _ name: String, in place: Restaurant = restaurant, stock: Int = 10) -> MenuItem {
            MenuItem(id: MenuItemID(id), restaurantId: place.id, name: name, price: Money(minorUnits: 1250, currency: .eur), stock: stock)
        }
        let items = [
            item("m-3", "Soup"), item("m-1", "Soup"), item("m-2", "soup"), item("m-4", "Éclair"),
            item("m-5", "Apple pie"), item("m-6", "Apple"), item("m-7", "Zucchini"), item("m-8", "Aaa", in: other),
        ]
        for item in items { try await world.menu.insert(item) }
        #expect(try await world.menu.menu(of: restaurant.id).map(\.id.rawValue) == ["m-6", "m-5", "m-1", "m-3", "m-7", "m-2", "m-4"])
        #expect(try await world.menu.menu(of: restaurant.id) == items.filter { $0.restaurantId == restaurant.id }.sorted {
            $0.name.utf8.elementsEqual($1.name.utf8) ? $0.id < $1.id : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        })
        #expect(try await world.menu.menu(of: RestaurantID("nope")) == [])
        #expect(try await world.menu.restock(itemId: MenuItemID("nope"), quantity: 5) == .notFound)
        #expect(try await world.menu.item(id: MenuItemID("nope")) == nil)
        #expect(try await world.menu.restock(itemId: MenuItemID("m-1"), quantity: 5) == .restocked(item("m-1", "Soup", stock: 15)))
        #expect(try await world.menu.item(id: MenuItemID("m-1")) == item("m-1", "Soup", stock: 15))
        // Up to the maximum exactly, then not one unit more, and a refused restock changes nothing.
        #expect(try await world.menu.restock(itemId: MenuItemID("m-1"), quantity: 5, maximumStock: 20, claim: nil) == .restocked(item("m-1", "Soup", stock: 20)))
        #expect(try await world.menu.restock(itemId: MenuItemID("m-1"), quantity: 1, maximumStock: 20, claim: nil) == .beyondMaximum(stock: 20))
        #expect(try await world.menu.restock(itemId: MenuItemID("nope"), quantity: 1, maximumStock: 20, claim: nil) == .notFound)
        #expect(try await world.menu.item(id: MenuItemID("m-1")) == item("m-1", "Soup", stock: 20))
        #expect(try await world.menu.items(ids: [MenuItemID("m-8"), MenuItemID("nope"), MenuItemID("m-4")]) == [items[7], items[3]])
    }

    @Test(arguments: Backend.allCases, [1, 2, 3, 7])
    func ordersOfAUserAreNewestFirstPagedAndRoundTripExactly(_ backend: Backend, limit: Int) async throws {
        let world = try await World.open(backend)
        let restaurant = try await world.makeRestaurant()
        let user = try await world.makeUser()
        let other = try await world.makeUser(name: "Other")
        let main = MenuItem(id: MenuItemID("m-a"), restaurantId: restaurant.id, name: "Main", price: Money(minorUnits: 1250, currency: .jpy), stock: 100)
        let side = MenuItem(id: MenuItemID("m-b"), restaurantId: restaurant.id, name: "Side", price: Money(minorUnits: 399, currency: .jpy), stock: 100)
        try await world.menu.insert(main)
        try await world.menu.insert(side)
        let times = [0, 5, 5, 5, 9, -3, 9]
        let orderIds = ["o-2", "o-10", "o-7", "o-3", "o-1", "o-5", "o-9"]
        var placed: [Order] = []
        for (index, id) in orderIds.enumerated() {
            let lines = index.isMultiple(of: 2)
                ? [Order.Line(itemId: side.id, quantity: 3, unitPriceCents: 399), Order.Line(itemId: main.id, quantity: 1 + index, unitPriceCents: 1250)]
                : [Order.Line(itemId: main.id, quantity: 2, unitPriceCents: 1200)]
            let order = Order(
                id: OrderID(id), userId: user.id, lines: lines, currency: .jpy, discountCents: 100 * index, taxCents: 777 + index,
                deliveryAddress: "Flat \(index), Straße 5 — \"rear\"\nTokyo 東京", createdAt: noon.adding(milliseconds: Int64(times[index]))
            )
            #expect(try await world.orders.place(order) == .placed(order))
            placed.append(order)
        }
        let foreign = Order(id: OrderID("o-99"), userId: other.id, lines: [.init(itemId: main.id, quantity: 1, unitPriceCents: 1250)], currency: .jpy, discountCents: 0, taxCents: 100, deliveryAddress: "Elsewhere", createdAt: noon.adding(milliseconds: 100))
        #expect(try await world.orders.place(foreign) == .placed(foreign))

        // Newest first, equal times by id descending ("o-7" > "o-3" > "o-10").
        let expected = placed.sorted { RecencyKey(createdAt: $0.createdAt, id: $0.id).precedes(RecencyKey(createdAt: $1.createdAt, id: $1.id)) }
        #expect(expected.map(\.id.rawValue) == ["o-9", "o-1", "o-7", "o-3", "o-10", "o-2", "o-5"])
        #expect(try await world.orders.orders(of: user.id, after: nil, limit: 500) == expected)
        for order in placed + [foreign] {
            #expect(try await world.orders.order(id: order.id) == order)
        }
        #expect(try await world.orders.order(id: OrderID("nope")) == nil)

        var visited: [Order] = []
        var after: RecencyKey<Order>?
        while true {
            let rows = try await world.orders.orders(of: user.id, after: after, limit: limit)
            visited += rows
            guard rows.count == limit, let last = rows.last else { break }
            after = RecencyKey(createdAt: last.createdAt, id: last.id)
        }
        #expect(visited == expected)
        let listOrders = ListOrders(users: world.users, orders: world.orders)
        let pages = try await allPages { cursor in try await listOrders.execute(userId: user.id, limit: limit, cursor: cursor) }
        #expect(pages.flatMap { $0 } == expected)

        let mainSold = placed.flatMap(\.lines).filter { $0.itemId == main.id }.map(\.quantity).reduce(0, +) + 1
        #expect(try await world.menu.item(id: main.id)?.stock == 100 - mainSold)
        #expect(try await world.menu.item(id: side.id)?.stock == 100 - 4 * 3)
        // A refused placement changes nothing.
        let tooMuch = Order(id: OrderID("o-big"), userId: user.id, lines: [.init(itemId: side.id, quantity: 1, unitPriceCents: 399), .init(itemId: main.id, quantity: 1000, unitPriceCents: 1250)], currency: .jpy, discountCents: 0, taxCents: 0, deliveryAddress: "x", createdAt: noon)
        #expect(try await world.orders.place(tooMuch) == .insufficientStock(itemId: main.id, requested: 1000, available: 100 - mainSold))
        let ghostItem = Order(id: OrderID("o-ghost"), userId: user.id, lines: [.init(itemId: side.id, quantity: 1, unitPriceCents: 399), .init(itemId: MenuItemID("nope"), quantity: 1, unitPriceCents: 1)], currency: .jpy, discountCents: 0, taxCents: 0, deliveryAddress: "x", createdAt: noon)
        #expect(try await world.orders.place(ghostItem) == .unknownItem(MenuItemID("nope")))
        #expect(try await world.menu.item(id: side.id)?.stock == 100 - 4 * 3)
        #expect(try await world.orders.order(id: OrderID("o-big")) == nil)
    }

    // MARK: Users

    struct Refused: Error {}

    @Test(arguments: Backend.allCases)
    func emailUniquenessIgnoresCaseAndAThrowingUpdateChangesNothing(_ backend: Backend) async throws {
        let world = try await World.open(backend)
        let ada = try await world.registerUser.execute(.init(name: "Ada", email: "Ada@Example.com"))
        let bob = try await world.registerUser.execute(.init(name: "Bob", email: "bob@example.com"))

        // Changing only the case of one's own address is allowed.
        let recased = ada.with(email: EmailAddress("ADA@EXAMPLE.COM")!)
        #expect(try await world.users.update(id: ada.id) { $0.with(email: EmailAddress("ADA@EXAMPLE.COM")!) } == .stored(recased))
        #expect(try await world.users.user(id: ada.id) == recased)
        #expect(try await world.updateUserProfile.execute(.init(userId: ada.id, email: "ada@example.com")).email.value == "ada@example.com")

        // Another user's address in other case is taken.
        #expect(try await world.users.update(id: bob.id) { $0.with(name: "Robert", email: EmailAddress("aDa@eXample.com")!) } == .emailTaken)
        #expect(try await world.users.user(id: bob.id) == bob)
        await #expect(throws: DomainError.conflict(reason: "email is already registered")) {
            try await world.updateUserProfile.execute(.init(userId: bob.id, email: "ADA@example.com"))
        }
        let twin = User(id: UserID("twin"), name: "Twin", email: EmailAddress("BOB@EXAMPLE.COM")!, joinedAt: noon)
        #expect(try await world.users.insert(twin) == .emailTaken)
        #expect(try await world.users.user(id: UserID("twin")) == nil)

        // A throwing change leaves the user as it was.
        let before = try #require(try await world.users.user(id: bob.id))
        await #expect(throws: Refused.self) {
            _ = try await world.users.update(id: bob.id) { _ in throw Refused() }
        }
        #expect(try await world.users.user(id: bob.id) == before)
        #expect(try await world.users.update(id: UserID("nobody")) { $0 } == .notFound)

        // The freed address can be taken by someone else.
        #expect(try await world.users.update(id: ada.id) { $0.with(email: EmailAddress("ada@new.example")!) } != .emailTaken)
        #expect(try await world.users.update(id: bob.id) { $0.with(email: EmailAddress("Ada@Example.COM")!) } == .stored(bob.with(email: EmailAddress("Ada@Example.COM")!)))
        #expect(try await world.users.allUsers().map(\.email.uniquenessKey).sorted() == ["ada@example.com", "ada@new.example"])
    }
}

/// Short search texts take one of two paths in the SQLite repository: rare ones come from its
/// in-memory short-text index, common ones (more than 1,000 restaurants) from a walk of the rank
/// index. Both must give exactly the Domain's answer, page after page.
@Suite struct ShortSearchPathTests {
    @Test func rareAndCommonShortTextsListExactlyWhatTheDomainSelects() async throws {
        let world = try await World.open(.sqlite)
        var generator = SplitMix64(seed: 7)
        var restaurants: [Restaurant] = []
        for index in 0..<1_300 {
            // Every name has "a"; "qz" only in a few; ratings collide often.
            let name = "Casa " + String(repeating: "qz", count: index % 97 == 0 ? 1 : 0) + "\(["Roma", "Lima", "Nara", "Bali"].randomElement(using: &generator)!) \(index)"
            let reviews = Int.random(in: 0..<4, using: &generator)
            restaurants.append(makeRestaurant(
                "s-\(index)", name: name, cuisine: ["Thai", "Greek", "Cuban"].randomElement(using: &generator)!,
                ratingTotal: reviews * (1 + Int.random(in: 0..<5, using: &generator)), reviewCount: reviews
            ))
        }
        let stored = restaurants
        _ = await race(stored.count) { index in try await world.restaurants.insert(stored[index]) }
        for text in ["a", "A", "qz", "QZ", "z", "ro", "th", "xx"] {
            let query = RestaurantQuery(text: text)
            let expected = rankSorted(restaurants.filter(query.matches))
            #expect(try await world.restaurants.list(query, after: nil, limit: 500).map(\.id) == Array(expected.prefix(500)).map(\.id), "text \(text)")
            // Paging with the repository's rank key visits the same rows in the same order.
            let paged = try await listAllPages(world.restaurants, query, limit: 97).map(\.id)
            #expect(paged == expected.map(\.id), "paging text \(text)")
        }
    }
}

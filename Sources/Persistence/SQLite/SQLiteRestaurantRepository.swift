import Domain
import GRDB
import Synchronization

/// Restaurants and reviews in SQLite, with every restaurant also held in memory for the hot
/// by-id reads (GetRestaurant, favorites, listings resolve ids through it).
///
/// A review and its restaurant's rating totals are written in one write transaction, so the
/// rating is always the mean of the stored reviews, across connections and processes. The held
/// copy only ever moves forward: a restaurant is replaced only by one with more reviews, so
/// late-arriving results of concurrent reviews cannot roll it back. Writes change it in their
/// `committed` step, which the group committer runs right after the commit, in commit order,
/// before the writer's caller resumes: a read after an `ok` sees the write.
///
/// Because those steps run on GRDB's writer queue, the copy is behind a lock of its own (a class
/// holding a `Mutex`, not an actor: nothing here needs an actor's queue), and every method is
/// `nonisolated(nonsending)`: it runs on its caller's executor without a switch to another
/// executor and back. A GetRestaurant on an endpoint's socket
/// thread then never leaves that thread (two queued jobs fewer per request), and a listing on one
/// of svcd's SQLite read threads stays on it.
///
/// Listings without a text filter walk ``RestaurantRanking``, the listed restaurants' rank keys
/// held in the same lock and changed in the same `committed` steps, so a page is as current as a
/// GetRestaurant; only a filter so selective that the walk's budget runs out before the page is
/// full continues in SQL from where the walk stopped. Search runs in SQL over indexes and returns
/// ids, which are then resolved here.
public final class SQLiteRestaurantRepository: RestaurantRepository {
    /// What it answers from memory: the reads served from the copy it holds.
    public var heldReads: Set<RepositoryRead> { [.restaurantById, .rankedRestaurants] }

    private let store: SQLiteStore
    private let held: Mutex<Held>

    /// Every restaurant by id, the index of short name and cuisine texts over them, and the
    /// listed ones in rank order: all of them, and those of each cuisine (keyed by the lowercased
    /// cuisine, as ``RestaurantQuery`` compares it), so a cuisine filter walks only its own.
    fileprivate struct Held {
        var restaurantsById: [RestaurantID: Restaurant]
        var shortText: ShortTextIndex
        var ranking: RestaurantRanking
        var rankingByCuisine: [String: RestaurantRanking]
    }

    /// How many rank keys a listing walks in memory before it continues in SQL: enough for any
    /// page of an unfiltered listing, and for filters that keep one restaurant in eight.
    static func walkBudget(limit: Int) -> Int { max(limit * 8, 2_000) }

    /// Restaurants of `store`, loading every restaurant into memory first.
    public init(store: SQLiteStore) async throws {
        self.store = store
        let (loaded, index, listed) = try await store.read { db in
            var restaurants: [RestaurantID: Restaurant] = [:]
            var index = ShortTextIndex()
            // The listed ones come in listing order (the SQL order is the ranking's), so building
            // the rankings checks the order instead of sorting.
            var listed: [(key: RestaurantRankKey, cuisine: String)] = []
            let cursor = try RestaurantRecord.fetchCursor(
                db, sql: "SELECT \(RestaurantRecord.selection) FROM restaurants ORDER BY listed DESC, rank_rating, name, id"
            )
            while let record = try cursor.next() {
                let restaurant = record.restaurant()
                restaurants[restaurant.id] = restaurant
                index.add(restaurant.id, keys: [record.nameKey, record.cuisineKey])
                if record.listed { listed.append((RestaurantRankKey(restaurant), restaurant.cuisine.lowercased())) }
            }
            return (restaurants, index, listed)
        }
        var byCuisine: [String: [RestaurantRankKey]] = [:]
        for (key, cuisine) in listed { byCuisine[cuisine, default: []].append(key) }
        held = Mutex(Held(
            restaurantsById: loaded, shortText: index, ranking: RestaurantRanking(listed.map(\.key)),
            rankingByCuisine: byCuisine.mapValues { RestaurantRanking($0) }
        ))
    }

    /// How many restaurants are held.
    public var count: Int { held.withLock { $0.restaurantsById.count } }

    /// Stores a new restaurant; returns once durable.
    public nonisolated(nonsending) func insert(_ restaurant: Restaurant, claim: IdempotencyClaim?) async throws {
        let record = RestaurantRecord(restaurant)
        let event = store.prepare(.restaurantCreated(restaurant))
        try await store.write(boundTo: claim, { db in
            try db.insert(record)
            try db.insert(RestaurantSearchRecord(record, rowid: db.lastInsertedRowID))
            return ((), .changed(.restaurant(restaurant), prepared: event))
        }, committed: { _ in self.remember(restaurant) })
    }

    /// The restaurant with this id.
    public nonisolated(nonsending) func restaurant(id: RestaurantID) async throws -> Restaurant? {
        if let restaurant = held.withLock({ $0.restaurantsById[id] }) { return restaurant }
        // Not held: created by another process on the same store, or unknown.
        guard let stored = try await fetch([id]).first else { return nil }
        return remember(stored)
    }

    /// The restaurants with these ids, in the order given; unknown ids are skipped.
    public nonisolated(nonsending) func restaurants(ids: [RestaurantID]) async throws -> [Restaurant] {
        let missing = held.withLock { held in ids.filter { held.restaurantsById[$0] == nil } }
        if !missing.isEmpty {
            for restaurant in try await fetch(missing) { remember(restaurant) }
        }
        return held.withLock { held in ids.compactMap { held.restaurantsById[$0] } }
    }

    /// Restaurants matching `query`, in rank order, strictly after `after`.
    ///
    /// Without a text filter the page comes from the held ranking (see ``Held/walk``), walking at
    /// most ``walkBudget(limit:)`` keys; only when that budget runs out before the page is full
    /// does it continue in SQL, strictly after the last key walked.
    ///
    /// The SQL text filter compares bytes and may select a restaurant whose Characters do not
    /// contain the text (see ``RestaurantListing``): rows are kept only if
    /// ``RestaurantQuery/matches(_:)`` accepts them, and the listing continues after the last
    /// row read until `limit` matched or the rows ran out.
    ///
    /// In SQL, a held restaurant whose rating differs from the row's was reviewed through another
    /// connection: it is read again first, so the listing filters and shows the rating it was
    /// ranked by. (The held ranking itself assumes this store is its file's only writer, as svcd
    /// makes sure with its data directory's lock; a store opened later reads every change.)
    ///
    /// A listing can filter and sort every held restaurant: svcd runs it on its SQLite read
    /// threads (`BlockingReadExecutor`), never on Swift's cooperative pool, where 600 concurrent
    /// searches for "a" in a debug build kept both of this machine's pool threads busy for over
    /// 2 s, and SIGTERM's handler waited behind them.
    public nonisolated(nonsending) func list(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int) async throws -> [Restaurant] {
        // Texts of one or two scalars are too short for the trigram index. Rare ones are
        // answered from the short-text index; common ones by walking the rank index in SQL, which
        // meets `limit` matches after about limit ÷ (share of matching rows) rows.
        let rare: [Restaurant]? = query.text.map(RestaurantRecord.searchKey).flatMap { text in
            held.withLock { held in
                guard let count = held.shortText.count(containing: text), count <= max(1_000, held.restaurantsById.count / 20) else { return nil }
                return held.shortText.restaurants(containing: text).compactMap { held.restaurantsById[$0] }
            }
        }
        if var matching = rare?.filter(query.matches) {
            if let after { matching.removeAll { !after.precedes(RestaurantRankKey($0)) } }
            matching.sort { RestaurantRankKey($0).precedes(RestaurantRankKey($1)) }
            return Array(matching.prefix(limit))
        }
        var matching: [Restaurant] = []
        var position = after
        if query.text == nil {
            let walk = held.withLock { held in held.walk(query, after: after, limit: limit, budget: Self.walkBudget(limit: limit)) }
            if walk.complete { return walk.matching }
            matching = walk.matching
            position = walk.last
        }
        while matching.count < limit {
            let wanted = limit - matching.count
            let keys = try await store.read { [position] db in try RestaurantListing(query: query, after: position, limit: wanted).ranked(db) }
            let stale = held.withLock { held in keys.filter { key in held.restaurantsById[key.id].map { $0.rating != key.rating } ?? false } }
            if !stale.isEmpty {
                for restaurant in try await fetch(stale.map(\.id)) { remember(restaurant) }
            }
            matching += try await restaurants(ids: keys.map(\.id)).filter(query.matches)
            guard keys.count == wanted, let last = keys.last else { break }
            position = last
        }
        return matching
    }

    /// Listed restaurants, newest first, strictly after `after`.
    public nonisolated(nonsending) func newest(after: RecencyKey<Restaurant>?, limit: Int) async throws -> [Restaurant] {
        let ids = try await store.read { db in
            let rows = try db.newestFirst("id", from: "restaurants", where: "listed = 1", [], after: after, limit: limit)
            return try rows.map { RestaurantID(try $0.decode(atIndex: 0)) }
        }
        return try await restaurants(ids: ids)
    }

    /// Stores the review and updates the rating totals in one transaction; returns the updated
    /// restaurant once durable, or `nil` (nothing stored) when the restaurant does not exist.
    public nonisolated(nonsending) func addReview(_ review: Review, claim: IdempotencyClaim?) async throws -> Restaurant? {
        let held = self.held.withLock { $0.restaurantsById[review.restaurantId] }
        let reviewRecord = ReviewRecord(review)
        return try await store.write(boundTo: claim, { db -> (Restaurant?, StoredWrite?) in
            guard let totals = try db.row("SELECT rating_total, review_count FROM restaurants WHERE id = ?", [review.restaurantId.rawValue]) else {
                return (nil, nil)
            }
            // The totals come from the database inside the write lock; the rest never changes.
            let base = try held ?? db.record(RestaurantRecord.self, Self.selectRestaurant, [review.restaurantId.rawValue])!.restaurant()
            let current = base.withTotals(ratingTotal: try totals.decode(atIndex: 0), reviewCount: try totals.decode(atIndex: 1))
            let updated = current.addingReview(rating: review.rating)
            try db.run(
                """
                UPDATE restaurants SET rating_total = :rating_total, review_count = :review_count, rank_rating = :rank_rating,
                    listed = :listed
                WHERE id = :id
                """,
                try RestaurantRecord(updated).namedArguments
            )
            try db.insert(reviewRecord)
            return (updated, .changed(.review(review, restaurantRating: updated.rating), .reviewAdded(review, restaurantRating: updated.rating)))
        }, committed: { updated in
            if let updated { self.remember(updated) }
        })
    }

    /// A restaurant's reviews, newest first, strictly after `after`.
    public nonisolated(nonsending) func reviews(of restaurantId: RestaurantID, after: RecencyKey<Review>?, limit: Int) async throws -> [Review] {
        try await store.read { db in
            let rows = try db.newestFirst(ReviewRecord.selection, from: "reviews", where: "restaurant_id = ?", [restaurantId.rawValue], after: after, limit: limit)
            return try rows.map { try ReviewRecord(row: $0).review() }
        }
    }

    /// How many reviews of the restaurant are newer than `since`, up to `atMost` (an index range
    /// scan that stops there).
    public nonisolated(nonsending) func reviewCount(of restaurantId: RestaurantID, createdAfter since: Timestamp, atMost: Int) async throws -> Int {
        try await store.read { db in
            try db.integer(Self.countRecentReviews, [restaurantId.rawValue, since.millisecondsSinceEpoch, max(atMost, 0)])
        }
    }

    /// The recent reviews of a restaurant, counted up to a limit.
    static let countRecentReviews = "SELECT count(*) FROM (SELECT 1 FROM reviews WHERE restaurant_id = ? AND created_at > ? LIMIT ?)"

    /// Keeps `restaurant` unless the held copy already counts as many reviews or more; returns
    /// the copy held afterwards.
    @discardableResult
    private func remember(_ restaurant: Restaurant) -> Restaurant {
        // The search keys are computed outside the lock; they are needed only for a new id.
        let isNew = held.withLock { $0.restaurantsById[restaurant.id] == nil }
        let keys = isNew ? [RestaurantRecord.searchKey(restaurant.name), RestaurantRecord.searchKey(restaurant.cuisine)] : []
        return held.withLock { held in
            let kept = held.restaurantsById[restaurant.id]
            if let kept {
                if kept.reviewCount >= restaurant.reviewCount { return kept }
            } else {
                held.shortText.add(restaurant.id, keys: keys)
            }
            held.restaurantsById[restaurant.id] = restaurant
            held.rerank(from: kept, to: restaurant)
            return restaurant
        }
    }

    /// A restaurant by id.
    private static let selectRestaurant = "SELECT \(RestaurantRecord.selection) FROM restaurants WHERE id = ?"

    private nonisolated(nonsending) func fetch(_ ids: [RestaurantID]) async throws -> [Restaurant] {
        try await store.read { db in
            try ids.compactMap { id in
                try db.record(RestaurantRecord.self, Self.selectRestaurant, [id.rawValue])?.restaurant()
            }
        }
    }
}

extension SQLiteRestaurantRepository.Held {
    /// Moves `restaurant`'s rank key from where `kept` (its previous copy) had it; listed
    /// restaurants only.
    mutating func rerank(from kept: Restaurant?, to restaurant: Restaurant) {
        let old = kept.flatMap { $0.isValid ? RestaurantRankKey($0) : nil }
        let new = restaurant.isValid ? RestaurantRankKey(restaurant) : nil
        guard old?.rating != new?.rating || (old == nil) != (new == nil) else { return }
        // A restaurant's cuisine never changes.
        let cuisine = restaurant.cuisine.lowercased()
        if let old {
            ranking.remove(old)
            rankingByCuisine[cuisine]?.remove(old)
        }
        if let new {
            ranking.insert(new)
            rankingByCuisine[cuisine, default: RestaurantRanking()].insert(new)
        }
    }

    /// Up to `limit` restaurants matching `query` strictly after `after`, from the ranking (of
    /// the query's cuisine, if it names one), looking at no more than `budget` keys. `complete`: the page is all there is (full, or the
    /// ranking ran out, or no later key can pass `minRating`); otherwise it continues strictly
    /// after `last`.
    func walk(_ query: RestaurantQuery, after: RestaurantRankKey?, limit: Int, budget: Int) -> (matching: [Restaurant], last: RestaurantRankKey?, complete: Bool) {
        var matching: [Restaurant] = []
        matching.reserveCapacity(min(limit, 64))
        var last = after
        var count = 0
        var complete = true
        let source = query.cuisine.map { rankingByCuisine[$0] ?? RestaurantRanking() } ?? ranking
        source.forEach(after: after) { key in
            // Ratings descend: once one is below the minimum, every later one is too.
            if let minRating = query.minRating, key.rating < minRating { return false }
            if count == budget {
                complete = false
                return false
            }
            count += 1
            last = key
            if let restaurant = restaurantsById[key.id], query.matches(restaurant) { matching.append(restaurant) }
            return matching.count < limit
        }
        return (matching, last, complete)
    }
}

extension Restaurant {
    /// A copy with other review totals.
    fileprivate func withTotals(ratingTotal: Int, reviewCount: Int) -> Restaurant {
        Restaurant(
            id: id, name: name, cuisine: cuisine, priceLevel: priceLevel, address: address, latitude: latitude,
            longitude: longitude, imageUrl: imageUrl, phoneNumber: phoneNumber, website: website,
            openingHours: openingHours, ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: createdAt
        )
    }
}

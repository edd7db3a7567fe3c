import Domain
import Persistence
import RestaurantTesting
import Synchronization

/// The reference time of the tests (every world's clock starts here).
let noon = World.start

/// A restaurant built field by field, bypassing the use case's validation, so tests can store
/// exact ratings, times and invalid values.
func makeRestaurant(
    _ id: String, name: String, cuisine: String = "Italian", priceLevel: Int = 2, address: String = "1 Main St",
    latitude: Double = 45, ratingTotal: Int = 0, reviewCount: Int = 0, createdAt: Timestamp = noon,
    imageUrl: String? = nil, openingHours: [String] = []
) -> Restaurant {
    Restaurant(
        id: RestaurantID(id), name: name, cuisine: cuisine, priceLevel: priceLevel, address: address,
        latitude: latitude, longitude: 9, imageUrl: imageUrl, phoneNumber: nil, website: nil,
        openingHours: openingHours, ratingTotal: ratingTotal, reviewCount: reviewCount, createdAt: createdAt
    )
}

/// The listing order the Domain defines, computed independently of any repository.
func rankSorted(_ restaurants: [Restaurant]) -> [Restaurant] {
    restaurants.sorted { RestaurantRankKey($0).precedes(RestaurantRankKey($1)) }
}

/// Newest first, ties broken by id descending, computed independently of any repository.
func recencySorted(_ restaurants: [Restaurant]) -> [Restaurant] {
    restaurants.sorted { RecencyKey(createdAt: $0.createdAt, id: $0.id).precedes(RecencyKey(createdAt: $1.createdAt, id: $1.id)) }
}

/// Every page of a listing, following its cursor until it ends.
func allPages<Element>(_ page: (PageCursor?) async throws -> Page<Element>) async throws -> [[Element]] {
    var pages: [[Element]] = []
    var cursor: PageCursor?
    repeat {
        let next = try await page(cursor)
        pages.append(next.items)
        cursor = next.nextCursor
        // A listing that never ends would hang the test; no test lists more than 1000 pages.
        if pages.count > 1000 { break }
    } while cursor != nil
    return pages
}

/// Ids collected by concurrent tasks.
final class Collected<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var all: [Element] { storage.withLock { $0 } }
}

/// Every restaurant `restaurants` lists for `query`, page after page of `limit`, each page strictly
/// after the last one's rank key, as a client pages with cursors.
func listAllPages(_ restaurants: any RestaurantRepository, _ query: RestaurantQuery, limit: Int) async throws -> [Restaurant] {
    var listed: [Restaurant] = []
    var after: RestaurantRankKey?
    while true {
        let page = try await restaurants.list(query, after: after, limit: limit)
        listed += page
        guard page.count == limit, let last = page.last else { return listed }
        after = RestaurantRankKey(last)
    }
}

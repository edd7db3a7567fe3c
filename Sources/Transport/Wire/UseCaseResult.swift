import Domain
import WireJSON

/// The `result` object of every use case, keyed as the contract's table names it.
public enum UseCaseResult: WireEncodable {
    /// `{"user": user}`
    case user(User)
    /// `{"profile": profile}`
    case profile(UserProfile)
    /// `{"restaurant": restaurant}` (with `isFavorite` when a user was given)
    case restaurant(Restaurant, isFavorite: Bool?)
    /// `{"restaurants": [...], "nextCursor": …}`
    case restaurantPage(Page<Restaurant>)
    /// `{"restaurants": [...]}`
    case restaurants([Restaurant])
    /// `{"favoriteCount": n}`
    case favoriteCount(Int)
    /// `{"review": review, "restaurantRating": x}`
    case review(Review, restaurantRating: Double)
    /// `{"reviews": [...], "nextCursor": …}`
    case reviewPage(Page<Review>)
    /// `{"score": x}`
    case score(Double)
    /// `{"item": item}`
    case item(MenuItem)
    /// `{"items": [...]}`
    case items([MenuItem])
    /// `{"order": order}`
    case order(Order)
    /// `{"orders": [...], "nextCursor": …}`
    case orderPage(Page<Order>)
    /// `{"items": [{id, title, imageUrl}], "nextCursor": …}`
    case feedPage(Page<FeedItem>)

    /// Writes the result object. Consuming, so the entities are handed to the writer without
    /// copying the payload first (a copy of a restaurant retains each of its strings).
    public consuming func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch consume self {
        case .user(let user):
            writer.key(literal: "user"); writer.user(user)
        case .profile(let profile):
            writer.key(literal: "profile"); writer.profile(profile)
        case .restaurant(let restaurant, let isFavorite):
            writer.key(literal: "restaurant"); writer.restaurant(restaurant, isFavorite: isFavorite)
        case .restaurantPage(let page):
            writer.array("restaurants", page.items) { $0.restaurant($1) }
            writer.nextCursor(page.nextCursor)
        case .restaurants(let restaurants):
            writer.array("restaurants", restaurants) { $0.restaurant($1) }
        case .favoriteCount(let count):
            writer.key(literal: "favoriteCount"); writer.int(count)
        case .review(let review, let rating):
            writer.key(literal: "review"); writer.review(review)
            writer.key(literal: "restaurantRating"); writer.double(rating)
        case .reviewPage(let page):
            writer.array("reviews", page.items) { $0.review($1) }
            writer.nextCursor(page.nextCursor)
        case .score(let score):
            writer.key(literal: "score"); writer.double(score)
        case .item(let item):
            writer.key(literal: "item"); writer.menuItem(item)
        case .items(let items):
            writer.array("items", items) { $0.menuItem($1) }
        case .order(let order):
            writer.key(literal: "order"); writer.order(order)
        case .orderPage(let page):
            writer.array("orders", page.items) { $0.order($1) }
            writer.nextCursor(page.nextCursor)
        case .feedPage(let page):
            writer.array("items", page.items) { $0.feedItem($1) }
            writer.nextCursor(page.nextCursor)
        }
        writer.endObject()
    }
}

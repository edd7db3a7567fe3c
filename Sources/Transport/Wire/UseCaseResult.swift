import Domain
import WireJSON
import WireContract

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
            writer.key(literal: WireMember.user.literal); writer.user(user)
        case .profile(let profile):
            writer.key(literal: WireMember.profile.literal); writer.profile(profile)
        case .restaurant(let restaurant, let isFavorite):
            writer.key(literal: WireMember.restaurant.literal); writer.restaurant(restaurant, isFavorite: isFavorite)
        case .restaurantPage(let page):
            writer.array(WireMember.restaurants.literal, page.items) { $0.restaurant($1) }
            writer.nextCursor(page.nextCursor)
        case .restaurants(let restaurants):
            writer.array(WireMember.restaurants.literal, restaurants) { $0.restaurant($1) }
        case .favoriteCount(let count):
            writer.key(literal: WireMember.favoriteCount.literal); writer.int(count)
        case .review(let review, let rating):
            writer.key(literal: WireMember.review.literal); writer.review(review)
            writer.key(literal: WireMember.restaurantRating.literal); writer.double(rating)
        case .reviewPage(let page):
            writer.array(WireMember.reviews.literal, page.items) { $0.review($1) }
            writer.nextCursor(page.nextCursor)
        case .score(let score):
            writer.key(literal: WireMember.score.literal); writer.double(score)
        case .item(let item):
            writer.key(literal: WireMember.item.literal); writer.menuItem(item)
        case .items(let items):
            writer.array(WireMember.items.literal, items) { $0.menuItem($1) }
        case .order(let order):
            writer.key(literal: WireMember.order.literal); writer.order(order)
        case .orderPage(let page):
            writer.array(WireMember.orders.literal, page.items) { $0.order($1) }
            writer.nextCursor(page.nextCursor)
        case .feedPage(let page):
            writer.array(WireMember.items.literal, page.items) { $0.feedItem($1) }
            writer.nextCursor(page.nextCursor)
        }
        writer.endObject()
    }
}

/// A kind of read a repository answers. Each repository says which of its reads it answers from
/// what it holds in memory (``UserRepository/heldReads`` and its siblings), and each read use
/// case says which reads it makes (its `reads`); a use case whose reads are all held never waits
/// for a database, which is what the transport decides where to run it from.
public enum RepositoryRead: Hashable, Sendable, CaseIterable {
    /// ``UserRepository/user(id:)``.
    case userById
    /// ``RestaurantRepository/restaurant(id:)`` and ``RestaurantRepository/restaurants(ids:)``.
    case restaurantById
    /// ``RestaurantRepository/list(_:after:limit:)`` without a text filter.
    case rankedRestaurants
    /// ``RestaurantRepository/list(_:after:limit:)`` with a text filter.
    case restaurantsMatchingText
    /// ``RestaurantRepository/newest(after:limit:)``.
    case newestRestaurants
    /// ``RestaurantRepository/reviews(of:after:limit:)`` and
    /// ``RestaurantRepository/reviewCount(of:createdAfter:atMost:)``.
    case reviews
    /// ``FavoriteRepository/contains(userId:restaurantId:)``.
    case favoriteCheck
    /// ``FavoriteRepository/favorites(of:)``.
    case favoritesOfUser
    /// ``MenuRepository/item(id:)``, ``MenuRepository/items(ids:)`` and ``MenuRepository/menu(of:)``.
    case menuItems
    /// ``OrderRepository/order(id:)`` and ``OrderRepository/orders(of:after:limit:)``.
    case orders
}

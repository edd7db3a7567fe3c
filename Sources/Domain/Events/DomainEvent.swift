/// A change the service made, as other services hear of it: every write that changed something
/// appends exactly one, in the same atomic step as the change (a transactional outbox), and the
/// event log numbers them without gaps.
///
/// Each case carries what a consumer needs without calling back: the write's result, plus
/// whatever else the change implies (the stock left after an order). A write that changed
/// nothing (saving an existing favourite, removing a missing one, deactivating an inactive user,
/// a profile update to the same values), a refused or failed write and an idempotent replay
/// append nothing.
public enum DomainEvent: Sendable, Hashable {
    /// RegisterUser: the user as stored.
    case userRegistered(User)
    /// UpdateUserProfile that changed the name or the address: the user as stored.
    case userProfileUpdated(User)
    /// DeactivateUser of an active user: the user as stored.
    case userDeactivated(User)
    /// StartSubscription: the user as stored, with the subscription's new end.
    case subscriptionStarted(User)
    /// CreateRestaurant: the new restaurant.
    case restaurantCreated(Restaurant)
    /// SaveFavoriteRestaurant of a restaurant not saved before: the user's count afterwards.
    case favoriteSaved(userId: UserID, restaurantId: RestaurantID, favoriteCount: Int)
    /// RemoveFavoriteRestaurant of a saved restaurant: the user's count afterwards.
    case favoriteRemoved(userId: UserID, restaurantId: RestaurantID, favoriteCount: Int)
    /// AddReview: the review and its restaurant's rating including it.
    case reviewAdded(Review, restaurantRating: Double)
    /// AddMenuItem: the new item.
    case menuItemAdded(MenuItem)
    /// RestockMenuItem: the item as stored, with its new stock.
    case menuItemRestocked(MenuItem)
    /// PlaceOrder: the order and the stock each of its items has left after it, in line order.
    case orderPlaced(Order, stock: [ItemStock])
    /// CancelOrder of a placed order: the cancelled order and the stock each of its items has
    /// after the return, in line order.
    case orderCancelled(Order, stock: [ItemStock])

    /// The id of the entity written, by which a consumer orders and groups the events of one
    /// entity: the user, the restaurant (its reviews too), the user (their favourites), the menu
    /// item, the order.
    public var key: String {
        switch self {
        case .userRegistered(let user), .userProfileUpdated(let user), .userDeactivated(let user), .subscriptionStarted(let user):
            user.id.rawValue
        case .restaurantCreated(let restaurant):
            restaurant.id.rawValue
        case .favoriteSaved(let userId, _, _), .favoriteRemoved(let userId, _, _):
            userId.rawValue
        case .reviewAdded(let review, _):
            review.restaurantId.rawValue
        case .menuItemAdded(let item), .menuItemRestocked(let item):
            item.id.rawValue
        case .orderPlaced(let order, _), .orderCancelled(let order, _):
            order.id.rawValue
        }
    }
}

/// How many units of an item are left: what an order's event reports for each of its lines.
public struct ItemStock: Sendable, Hashable {
    /// The item.
    public let itemId: MenuItemID
    /// Units left.
    public let stock: Int

    /// Creates the pair.
    public init(itemId: MenuItemID, stock: Int) {
        self.itemId = itemId
        self.stock = stock
    }
}

/// The kinds of operation a stress run sends.
public enum StressOperationKind: String, CaseIterable, Sendable {
    /// A read: GetRestaurant, ListRestaurants, SearchRestaurants, GetReviews, GetMenu, LoadFeed,
    /// CalculateRestaurantScore, GetUserProfile, GetFavoriteRestaurants, ListOrders, GetOrder.
    case read
    /// SaveFavoriteRestaurant (and, for half of the users, RemoveFavoriteRestaurant).
    case favorite
    /// AddReview.
    case review
    /// PlaceOrder.
    case order
    /// CancelOrder of an order the same client placed (a recent one, sometimes one it cancelled
    /// already); PlaceOrder while it has placed none.
    case cancel
    /// RestockMenuItem.
    case restock
    /// UpdateUserProfile: a new name for one of the run's users (the data does not grow).
    case update
    /// RegisterUser of a contested email address (random letter case).
    case register
}

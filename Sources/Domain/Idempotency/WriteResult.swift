/// What a successful write stored, as its idempotency binding records it: exactly the result the
/// write's use case returns.
public enum WriteResult: Sendable, Hashable {
    /// RegisterUser, UpdateUserProfile, DeactivateUser, StartSubscription: the user as stored.
    case user(User)
    /// CreateRestaurant: the new restaurant.
    case restaurant(Restaurant)
    /// SaveFavoriteRestaurant, RemoveFavoriteRestaurant: the user's favorite count afterwards.
    case favoriteCount(Int)
    /// AddReview: the review and the restaurant's rating including it.
    case review(Review, restaurantRating: Double)
    /// AddMenuItem, RestockMenuItem: the item as stored.
    case menuItem(MenuItem)
    /// PlaceOrder, CancelOrder: the order.
    case order(Order)
}

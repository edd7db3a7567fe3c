/// The 22 use cases of svcd, named as in `endpoints.json` (`useCases` keys) and Docs/PROTOCOL.md.
public enum UseCase: String, Sendable, Hashable, CaseIterable {
    /// `RegisterUser` (write).
    case registerUser = "RegisterUser"
    /// `GetUserProfile` (read).
    case getUserProfile = "GetUserProfile"
    /// `UpdateUserProfile` (write).
    case updateUserProfile = "UpdateUserProfile"
    /// `DeactivateUser` (write).
    case deactivateUser = "DeactivateUser"
    /// `StartSubscription` (write).
    case startSubscription = "StartSubscription"
    /// `CreateRestaurant` (write).
    case createRestaurant = "CreateRestaurant"
    /// `GetRestaurant` (read).
    case getRestaurant = "GetRestaurant"
    /// `ListRestaurants` (read, paged).
    case listRestaurants = "ListRestaurants"
    /// `SearchRestaurants` (read).
    case searchRestaurants = "SearchRestaurants"
    /// `SaveFavoriteRestaurant` (write).
    case saveFavoriteRestaurant = "SaveFavoriteRestaurant"
    /// `RemoveFavoriteRestaurant` (write).
    case removeFavoriteRestaurant = "RemoveFavoriteRestaurant"
    /// `GetFavoriteRestaurants` (read).
    case getFavoriteRestaurants = "GetFavoriteRestaurants"
    /// `AddReview` (write).
    case addReview = "AddReview"
    /// `GetReviews` (read, paged).
    case getReviews = "GetReviews"
    /// `CalculateRestaurantScore` (read).
    case calculateRestaurantScore = "CalculateRestaurantScore"
    /// `AddMenuItem` (write).
    case addMenuItem = "AddMenuItem"
    /// `RestockMenuItem` (write).
    case restockMenuItem = "RestockMenuItem"
    /// `GetMenu` (read).
    case getMenu = "GetMenu"
    /// `PlaceOrder` (write).
    case placeOrder = "PlaceOrder"
    /// `GetOrder` (read).
    case getOrder = "GetOrder"
    /// `ListOrders` (read, paged).
    case listOrders = "ListOrders"
    /// `LoadFeed` (read, paged).
    case loadFeed = "LoadFeed"

    /// Whether this use case only reads (Get*, List*, Search*, Load*, CalculateRestaurantScore).
    /// Every other use case is a write: ``RestaurantClient`` gives its requests an
    /// `idempotencyKey`, which is what makes resending a write that timed out safe.
    public var isIdempotentRead: Bool {
        switch self {
        case .getUserProfile, .getRestaurant, .listRestaurants, .searchRestaurants, .getFavoriteRestaurants,
            .getReviews, .calculateRestaurantScore, .getMenu, .getOrder, .listOrders, .loadFeed:
            true
        default:
            false
        }
    }
}

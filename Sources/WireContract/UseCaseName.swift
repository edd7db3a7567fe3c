/// The use cases of the contract, named as on the wire (`endpoints.json`'s `useCases` keys,
/// statistics, logs), in the fixed endpoint order: the admin endpoint binds port N, and use case
/// number k (1-based, in this order) binds port N + k.
public enum UseCaseName: String, Sendable, Hashable, CaseIterable {
    case registerUser = "RegisterUser"
    case getUserProfile = "GetUserProfile"
    case updateUserProfile = "UpdateUserProfile"
    case deactivateUser = "DeactivateUser"
    case startSubscription = "StartSubscription"
    case createRestaurant = "CreateRestaurant"
    case getRestaurant = "GetRestaurant"
    case listRestaurants = "ListRestaurants"
    case searchRestaurants = "SearchRestaurants"
    case saveFavoriteRestaurant = "SaveFavoriteRestaurant"
    case removeFavoriteRestaurant = "RemoveFavoriteRestaurant"
    case getFavoriteRestaurants = "GetFavoriteRestaurants"
    case addReview = "AddReview"
    case getReviews = "GetReviews"
    case calculateRestaurantScore = "CalculateRestaurantScore"
    case addMenuItem = "AddMenuItem"
    case restockMenuItem = "RestockMenuItem"
    case getMenu = "GetMenu"
    case placeOrder = "PlaceOrder"
    case getOrder = "GetOrder"
    case listOrders = "ListOrders"
    case loadFeed = "LoadFeed"
    /// CancelOrder: a user's own order within 30 minutes, returning its stock.
    case cancelOrder = "CancelOrder"

    /// Whether the use case writes to the store. A write is answered only once it is durable,
    /// which takes a commit (milliseconds), so its endpoint runs writes concurrently to let them
    /// share commits; reads are answered inline, in arrival order. A write binds the request's
    /// `idempotencyKey`, which is what makes resending one that timed out safe; a read has no
    /// effect, so resending it is always safe.
    public var writes: Bool {
        switch self {
        case .registerUser, .updateUserProfile, .deactivateUser, .startSubscription, .createRestaurant,
             .saveFavoriteRestaurant, .removeFavoriteRestaurant, .addReview, .addMenuItem, .restockMenuItem, .placeOrder,
             .cancelOrder:
            true
        case .getUserProfile, .getRestaurant, .listRestaurants, .searchRestaurants, .getFavoriteRestaurants,
             .getReviews, .calculateRestaurantScore, .getMenu, .getOrder, .listOrders, .loadFeed:
            false
        }
    }

    /// 1-based position in the endpoint order: the endpoint binds port base + this.
    public var portOffset: Int {
        UseCaseName.allCases.firstIndex(of: self)! + 1
    }
}

extension UseCaseName: CustomStringConvertible {
    /// The wire name: a message that names a use case names it as the contract does
    /// (`ListRestaurants`, not the Swift case `listRestaurants`).
    public var description: String { rawValue }
}

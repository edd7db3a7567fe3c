import Domain

/// Each use case of ``World/useCases`` by a short name.
extension World {
    /// RegisterUser.
    public var registerUser: RegisterUser { useCases.registerUser }
    /// GetUserProfile.
    public var getUserProfile: GetUserProfile { useCases.getUserProfile }
    /// UpdateUserProfile.
    public var updateUserProfile: UpdateUserProfile { useCases.updateUserProfile }
    /// DeactivateUser.
    public var deactivateUser: DeactivateUser { useCases.deactivateUser }
    /// StartSubscription.
    public var startSubscription: StartSubscription { useCases.startSubscription }
    /// CreateRestaurant.
    public var createRestaurant: CreateRestaurant { useCases.createRestaurant }
    /// GetRestaurant.
    public var getRestaurant: GetRestaurant { useCases.getRestaurant }
    /// ListRestaurants.
    public var listRestaurants: ListRestaurants { useCases.listRestaurants }
    /// SearchRestaurants.
    public var searchRestaurants: SearchRestaurants { useCases.searchRestaurants }
    /// SaveFavoriteRestaurant.
    public var saveFavorite: SaveFavoriteRestaurant { useCases.saveFavoriteRestaurant }
    /// RemoveFavoriteRestaurant.
    public var removeFavorite: RemoveFavoriteRestaurant { useCases.removeFavoriteRestaurant }
    /// GetFavoriteRestaurants.
    public var getFavorites: GetFavoriteRestaurants { useCases.getFavoriteRestaurants }
    /// AddReview.
    public var addReview: AddReview { useCases.addReview }
    /// GetReviews.
    public var getReviews: GetReviews { useCases.getReviews }
    /// CalculateRestaurantScore.
    public var calculateScore: CalculateRestaurantScore { useCases.calculateRestaurantScore }
    /// AddMenuItem.
    public var addMenuItem: AddMenuItem { useCases.addMenuItem }
    /// RestockMenuItem.
    public var restockMenuItem: RestockMenuItem { useCases.restockMenuItem }
    /// GetMenu.
    public var getMenu: GetMenu { useCases.getMenu }
    /// PlaceOrder.
    public var placeOrder: PlaceOrder { useCases.placeOrder }
    /// GetOrder.
    public var getOrder: GetOrder { useCases.getOrder }
    /// ListOrders.
    public var listOrders: ListOrders { useCases.listOrders }
    /// LoadFeed.
    public var loadFeed: LoadFeed { useCases.loadFeed }
    /// CancelOrder.
    public var cancelOrder: CancelOrder { useCases.cancelOrder }
}

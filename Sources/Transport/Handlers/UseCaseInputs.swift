import Domain
import WireContract

/// Each use case's `params` read into what its use case takes: the wire mapping of member names
/// and JSON types per the contract (the route of each use case calls its function here, then
/// the use case). Members are read in a fixed order, so the error names the first wrong one.
///
/// Pure functions of the params, with nothing of the endpoint, the store or the use cases, so
/// they can be exercised alone: `Fuzz/Targets/UseCaseParams.swift` runs every one of them under
/// libFuzzer.
enum UseCaseInputs {
    static func registerUser(_ p: Params) throws(WireError) -> RegisterUser.Input {
        .init(name: try p.string(WireMember.name.name), email: try p.string(WireMember.email.name))
    }

    static func getUserProfile(_ p: Params) throws(WireError) -> UserID {
        try p.identifier(WireMember.userId.name)
    }

    static func updateUserProfile(_ p: Params) throws(WireError) -> UpdateUserProfile.Input {
        .init(userId: try p.identifier(WireMember.userId.name), name: try p.optionalString(WireMember.name.name), email: try p.optionalString(WireMember.email.name))
    }

    static func deactivateUser(_ p: Params) throws(WireError) -> UserID {
        try p.identifier(WireMember.userId.name)
    }

    static func startSubscription(_ p: Params) throws(WireError) -> (userId: UserID, months: Int) {
        (try p.identifier(WireMember.userId.name), try p.int(WireMember.months.name))
    }

    static func createRestaurant(_ p: Params) throws(WireError) -> CreateRestaurant.Input {
        CreateRestaurant.Input(
            name: try p.string(WireMember.name.name), cuisine: try p.string(WireMember.cuisine.name), priceLevel: try p.int(WireMember.priceLevel.name),
            address: try p.string(WireMember.address.name), latitude: try p.double(WireMember.latitude.name), longitude: try p.double(WireMember.longitude.name),
            imageUrl: try p.optionalString(WireMember.imageUrl.name), phoneNumber: try p.optionalString(WireMember.phoneNumber.name),
            website: try p.optionalString(WireMember.website.name), openingHours: try p.optionalStringArray(WireMember.openingHours.name)
        )
    }

    static func getRestaurant(_ p: Params) throws(WireError) -> (restaurantId: RestaurantID, userId: UserID?) {
        (try p.identifier(WireMember.restaurantId.name), try p.optionalIdentifier(WireMember.userId.name))
    }

    static func listRestaurants(_ p: Params) throws(WireError) -> ListRestaurants.Input {
        ListRestaurants.Input(
            cuisine: try p.optionalString(WireMember.cuisine.name), minRating: try p.optionalDouble(WireMember.minRating.name),
            maxPriceLevel: try p.optionalInt(WireMember.maxPriceLevel.name), limit: try p.optionalInt(WireMember.limit.name), cursor: try p.optionalCursor()
        )
    }

    static func searchRestaurants(_ p: Params) throws(WireError) -> (query: String, limit: Int?) {
        (try p.string(WireMember.query.name), try p.optionalInt(WireMember.limit.name))
    }

    static func saveFavoriteRestaurant(_ p: Params) throws(WireError) -> (userId: UserID, restaurantId: RestaurantID) {
        (try p.identifier(WireMember.userId.name), try p.identifier(WireMember.restaurantId.name))
    }

    static func removeFavoriteRestaurant(_ p: Params) throws(WireError) -> (userId: UserID, restaurantId: RestaurantID) {
        (try p.identifier(WireMember.userId.name), try p.identifier(WireMember.restaurantId.name))
    }

    static func getFavoriteRestaurants(_ p: Params) throws(WireError) -> UserID {
        try p.identifier(WireMember.userId.name)
    }

    static func addReview(_ p: Params) throws(WireError) -> AddReview.Input {
        AddReview.Input(
            userId: try p.identifier(WireMember.userId.name), restaurantId: try p.identifier(WireMember.restaurantId.name), rating: try p.int(WireMember.rating.name),
            text: try p.string(WireMember.text.name)
        )
    }

    static func getReviews(_ p: Params) throws(WireError) -> (restaurantId: RestaurantID, limit: Int?, cursor: PageCursor?) {
        (try p.identifier(WireMember.restaurantId.name), try p.optionalInt(WireMember.limit.name), try p.optionalCursor())
    }

    static func calculateRestaurantScore(_ p: Params) throws(WireError) -> RestaurantID {
        try p.identifier(WireMember.restaurantId.name)
    }

    static func addMenuItem(_ p: Params) throws(WireError) -> AddMenuItem.Input {
        AddMenuItem.Input(
            restaurantId: try p.identifier(WireMember.restaurantId.name), name: try p.string(WireMember.name.name), priceCents: try p.int(WireMember.priceCents.name),
            currency: try p.string(WireMember.currency.name), stock: try p.int(WireMember.stock.name)
        )
    }

    static func restockMenuItem(_ p: Params) throws(WireError) -> (itemId: MenuItemID, quantity: Int) {
        (try p.identifier(WireMember.itemId.name), try p.int(WireMember.quantity.name))
    }

    static func getMenu(_ p: Params) throws(WireError) -> RestaurantID {
        try p.identifier(WireMember.restaurantId.name)
    }

    static func placeOrder(_ p: Params) throws(WireError) -> PlaceOrder.Input {
        let lines = try p.objectArray(WireMember.items.name) { line throws(WireError) in
            PlaceOrder.LineInput(itemId: try line.identifier(WireMember.itemId.name), quantity: try line.int(WireMember.quantity.name))
        }
        return PlaceOrder.Input(
            userId: try p.identifier(WireMember.userId.name), items: lines, discountCents: try p.optionalInt(WireMember.discountCents.name),
            deliveryAddress: try p.string(WireMember.deliveryAddress.name)
        )
    }

    static func getOrder(_ p: Params) throws(WireError) -> OrderID {
        try p.identifier(WireMember.orderId.name)
    }

    static func listOrders(_ p: Params) throws(WireError) -> (userId: UserID, limit: Int?, cursor: PageCursor?) {
        (try p.identifier(WireMember.userId.name), try p.optionalInt(WireMember.limit.name), try p.optionalCursor())
    }

    static func loadFeed(_ p: Params) throws(WireError) -> (limit: Int?, cursor: PageCursor?) {
        (try p.optionalInt(WireMember.limit.name), try p.optionalCursor())
    }

    static func cancelOrder(_ p: Params) throws(WireError) -> (orderId: OrderID, userId: UserID) {
        (try p.identifier(WireMember.orderId.name), try p.identifier(WireMember.userId.name))
    }
}

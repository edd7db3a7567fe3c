import Domain
import WireContract

extension UseCaseName {
    /// The schema of this use case's `params`. An exhaustive switch: a new use case does not
    /// compile without its schemas.
    public var paramsSchema: WireSchema {
        typealias M = WireSchema.Member
        let userId = M("userId", .id), restaurantId = M("restaurantId", .id)
        let limit = M("limit", .limit, required: false), cursor = M("cursor", .cursor, required: false)
        let name = Validate.maximumNameLength
        switch self {
        case .registerUser:
            return .object([M("name", .trimmed(name)), M("email", .trimmed(EmailAddress.maximumLength))])
        case .getUserProfile, .deactivateUser, .getFavoriteRestaurants:
            return .object([userId])
        case .updateUserProfile:
            return .object([userId, M("name", .trimmed(name), required: false), M("email", .trimmed(EmailAddress.maximumLength), required: false)])
        case .startSubscription:
            return .object([userId, M("months", .integer(minimum: StartSubscription.months.lowerBound, maximum: StartSubscription.months.upperBound))])
        case .createRestaurant:
            return .object([
                M("name", .trimmed(name)), M("cuisine", .trimmed(name)),
                M("priceLevel", .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound)),
                M("address", .trimmed(CreateRestaurant.maximumAddressLength)),
                M("latitude", .number(minimum: Restaurant.latitudes.lowerBound, maximum: Restaurant.latitudes.upperBound)),
                M("longitude", .number(minimum: Restaurant.longitudes.lowerBound, maximum: Restaurant.longitudes.upperBound)),
                M("imageUrl", .optionalTrimmed(CreateRestaurant.maximumURLLength), required: false),
                M("phoneNumber", .optionalTrimmed(CreateRestaurant.maximumPhoneLength), required: false),
                M("website", .optionalTrimmed(CreateRestaurant.maximumURLLength), required: false),
                M("openingHours", .array(.trimmed(name), maxItems: CreateRestaurant.maximumOpeningHoursLines), required: false),
            ])
        case .getRestaurant:
            return .object([restaurantId, M("userId", .id, required: false)])
        case .listRestaurants:
            return .object([
                M("cuisine", .string(description: "matched ignoring case"), required: false),
                M("minRating", .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound), required: false),
                M("maxPriceLevel", .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound), required: false),
                limit, cursor,
            ])
        case .searchRestaurants:
            return .object([M("query", .trimmed(SearchRestaurants.maximumQueryLength)), limit])
        case .saveFavoriteRestaurant, .removeFavoriteRestaurant:
            return .object([userId, restaurantId])
        case .addReview:
            return .object([
                userId, restaurantId, M("rating", .integer(minimum: Review.ratings.lowerBound, maximum: Review.ratings.upperBound)),
                M("text", .string(description: "at most \(Review.maximumTextLength) characters")),
            ])
        case .getReviews:
            return .object([restaurantId, limit, cursor])
        case .calculateRestaurantScore, .getMenu:
            return .object([restaurantId])
        case .addMenuItem:
            return .object([
                restaurantId, M("name", .trimmed(name)),
                M("priceCents", .integer(minimum: MenuItem.prices.lowerBound, maximum: MenuItem.prices.upperBound)),
                M("currency", .currency), M("stock", .integer(minimum: MenuItem.stocks.lowerBound, maximum: MenuItem.stocks.upperBound)),
            ])
        case .restockMenuItem:
            return .object([M("itemId", .id), M("quantity", .integer(minimum: MenuItem.restockQuantities.lowerBound, maximum: MenuItem.restockQuantities.upperBound))])
        case .placeOrder:
            return .object([
                userId,
                M("items", .array(.object([
                    M("itemId", .id), M("quantity", .integer(minimum: Order.quantities.lowerBound, maximum: Order.quantities.upperBound)),
                ]), minItems: 1, maxItems: Order.maximumLines)),
                M("discountCents", .integer(minimum: 0, description: "at most the subtotal; default 0"), required: false),
                M("deliveryAddress", .trimmed(Order.maximumAddressLength)),
            ])
        case .getOrder:
            return .object([M("orderId", .id)])
        case .listOrders:
            return .object([userId, limit, cursor])
        case .loadFeed:
            return .object([limit, cursor])
        case .cancelOrder:
            return .object([M("orderId", .id), userId])
        }
    }

    /// The schema of this use case's `result`.
    public var resultSchema: WireSchema {
        typealias M = WireSchema.Member
        switch self {
        case .registerUser, .updateUserProfile, .deactivateUser, .startSubscription:
            return .object([M("user", .user)])
        case .getUserProfile:
            return .object([M("profile", .profile)])
        case .createRestaurant, .getRestaurant:
            return .object([M("restaurant", .restaurant)])
        case .listRestaurants:
            return .object([M("restaurants", .array(.restaurant)), M("nextCursor", .nextCursor)])
        case .searchRestaurants, .getFavoriteRestaurants:
            return .object([M("restaurants", .array(.restaurant))])
        case .saveFavoriteRestaurant, .removeFavoriteRestaurant:
            return .object([M("favoriteCount", .integer(minimum: 0, maximum: Favorite.maximumPerUser))])
        case .addReview:
            return .object([M("review", .review), M("restaurantRating", .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound))])
        case .getReviews:
            return .object([M("reviews", .array(.review)), M("nextCursor", .nextCursor)])
        case .calculateRestaurantScore:
            return .object([M("score", .number(minimum: 0))])
        case .addMenuItem, .restockMenuItem:
            return .object([M("item", .item)])
        case .getMenu:
            return .object([M("items", .array(.item))])
        case .placeOrder, .getOrder, .cancelOrder:
            return .object([M("order", .order)])
        case .listOrders:
            return .object([M("orders", .array(.order)), M("nextCursor", .nextCursor)])
        case .loadFeed:
            return .object([M("items", .array(.feedItem)), M("nextCursor", .nextCursor)])
        }
    }

    /// Every error code this use case can answer: the envelope's and the transport's, which
    /// any request may get, and those its rules give.
    public var errorCodes: [WireErrorCode] {
        var codes: Set<WireErrorCode> = [.malformed, .unsupportedVersion, .invalidInput, .overloaded, .deadlineExceeded, .unavailable, .internal]
        // A bound idempotency key sent with another request.
        if writes { codes.insert(.conflict) }
        switch self {
        case .registerUser, .createRestaurant, .listRestaurants, .searchRestaurants, .loadFeed:
            break
        case .deactivateUser, .getReviews, .calculateRestaurantScore, .addMenuItem, .getMenu, .getOrder, .listOrders:
            codes.insert(.notFound)
        case .getUserProfile, .updateUserProfile, .startSubscription, .getRestaurant, .removeFavoriteRestaurant, .getFavoriteRestaurants, .addReview:
            codes.formUnion([.notFound, .unauthorized])
        case .restockMenuItem:
            codes.formUnion([.notFound, .businessRule])
        case .saveFavoriteRestaurant, .placeOrder, .cancelOrder:
            codes.formUnion([.notFound, .unauthorized, .businessRule])
        }
        return WireErrorCode.allCases.filter(codes.contains)
    }
}

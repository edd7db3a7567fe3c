import Domain

extension UseCaseName {
    /// The schema of this use case's `params`. An exhaustive switch: a new use case does not
    /// compile without its schemas.
    public var paramsSchema: WireSchema {
        typealias M = WireSchema.Member
        let userId = M(WireMember.userId.name, .id), restaurantId = M(WireMember.restaurantId.name, .id)
        let limit = M(WireMember.limit.name, .limit, required: false), cursor = M(WireMember.cursor.name, .cursor, required: false)
        let name = Validate.maximumNameLength
        switch self {
        case .registerUser:
            return .object([M(WireMember.name.name, .trimmed(name)), M(WireMember.email.name, .trimmed(EmailAddress.maximumLength))])
        case .getUserProfile, .deactivateUser, .getFavoriteRestaurants:
            return .object([userId])
        case .updateUserProfile:
            return .object([userId, M(WireMember.name.name, .trimmed(name), required: false), M(WireMember.email.name, .trimmed(EmailAddress.maximumLength), required: false)])
        case .startSubscription:
            return .object([userId, M(WireMember.months.name, .integer(minimum: StartSubscription.months.lowerBound, maximum: StartSubscription.months.upperBound))])
        case .createRestaurant:
            return .object([
                M(WireMember.name.name, .trimmed(name)), M(WireMember.cuisine.name, .trimmed(name)),
                M(WireMember.priceLevel.name, .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound)),
                M(WireMember.address.name, .trimmed(CreateRestaurant.maximumAddressLength)),
                M(WireMember.latitude.name, .number(minimum: Restaurant.latitudes.lowerBound, maximum: Restaurant.latitudes.upperBound)),
                M(WireMember.longitude.name, .number(minimum: Restaurant.longitudes.lowerBound, maximum: Restaurant.longitudes.upperBound)),
                M(WireMember.imageUrl.name, .optionalTrimmed(CreateRestaurant.maximumURLLength), required: false),
                M(WireMember.phoneNumber.name, .optionalTrimmed(CreateRestaurant.maximumPhoneLength), required: false),
                M(WireMember.website.name, .optionalTrimmed(CreateRestaurant.maximumURLLength), required: false),
                M(WireMember.openingHours.name, .array(.trimmed(name), maxItems: CreateRestaurant.maximumOpeningHoursLines), required: false),
            ])
        case .getRestaurant:
            return .object([restaurantId, M(WireMember.userId.name, .id, required: false)])
        case .listRestaurants:
            return .object([
                M(WireMember.cuisine.name, .string(description: "matched ignoring case"), required: false),
                M(WireMember.minRating.name, .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound), required: false),
                M(WireMember.maxPriceLevel.name, .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound), required: false),
                limit, cursor,
            ])
        case .searchRestaurants:
            return .object([M(WireMember.query.name, .trimmed(SearchRestaurants.maximumQueryLength)), limit])
        case .saveFavoriteRestaurant, .removeFavoriteRestaurant:
            return .object([userId, restaurantId])
        case .addReview:
            return .object([
                userId, restaurantId, M(WireMember.rating.name, .integer(minimum: Review.ratings.lowerBound, maximum: Review.ratings.upperBound)),
                M(WireMember.text.name, .string(description: "at most \(Review.maximumTextLength) characters")),
            ])
        case .getReviews:
            return .object([restaurantId, limit, cursor])
        case .calculateRestaurantScore, .getMenu:
            return .object([restaurantId])
        case .addMenuItem:
            return .object([
                restaurantId, M(WireMember.name.name, .trimmed(name)),
                M(WireMember.priceCents.name, .integer(minimum: MenuItem.prices.lowerBound, maximum: MenuItem.prices.upperBound)),
                M(WireMember.currency.name, .currency), M(WireMember.stock.name, .integer(minimum: MenuItem.stocks.lowerBound, maximum: MenuItem.stocks.upperBound)),
            ])
        case .restockMenuItem:
            return .object([M(WireMember.itemId.name, .id), M(WireMember.quantity.name, .integer(minimum: MenuItem.restockQuantities.lowerBound, maximum: MenuItem.restockQuantities.upperBound))])
        case .placeOrder:
            return .object([
                userId,
                M(WireMember.items.name, .array(.object([
                    M(WireMember.itemId.name, .id), M(WireMember.quantity.name, .integer(minimum: Order.quantities.lowerBound, maximum: Order.quantities.upperBound)),
                ]), minItems: 1, maxItems: Order.maximumLines)),
                M(WireMember.discountCents.name, .integer(minimum: 0, description: "at most the subtotal; default 0"), required: false),
                M(WireMember.deliveryAddress.name, .trimmed(Order.maximumAddressLength)),
            ])
        case .getOrder:
            return .object([M(WireMember.orderId.name, .id)])
        case .listOrders:
            return .object([userId, limit, cursor])
        case .loadFeed:
            return .object([limit, cursor])
        case .cancelOrder:
            return .object([M(WireMember.orderId.name, .id), userId])
        }
    }

    /// The schema of this use case's `result`.
    public var resultSchema: WireSchema {
        typealias M = WireSchema.Member
        switch self {
        case .registerUser, .updateUserProfile, .deactivateUser, .startSubscription:
            return .object([M(WireMember.user.name, .user)])
        case .getUserProfile:
            return .object([M(WireMember.profile.name, .profile)])
        case .createRestaurant, .getRestaurant:
            return .object([M(WireMember.restaurant.name, .restaurant)])
        case .listRestaurants:
            return .object([M(WireMember.restaurants.name, .array(.restaurant)), M(WireMember.nextCursor.name, .nextCursor)])
        case .searchRestaurants, .getFavoriteRestaurants:
            return .object([M(WireMember.restaurants.name, .array(.restaurant))])
        case .saveFavoriteRestaurant, .removeFavoriteRestaurant:
            return .object([M(WireMember.favoriteCount.name, .integer(minimum: 0, maximum: Favorite.maximumPerUser))])
        case .addReview:
            return .object([M(WireMember.review.name, .review), M(WireMember.restaurantRating.name, .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound))])
        case .getReviews:
            return .object([M(WireMember.reviews.name, .array(.review)), M(WireMember.nextCursor.name, .nextCursor)])
        case .calculateRestaurantScore:
            return .object([M(WireMember.score.name, .number(minimum: 0))])
        case .addMenuItem, .restockMenuItem:
            return .object([M(WireMember.item.name, .item)])
        case .getMenu:
            return .object([M(WireMember.items.name, .array(.item))])
        case .placeOrder, .getOrder, .cancelOrder:
            return .object([M(WireMember.order.name, .order)])
        case .listOrders:
            return .object([M(WireMember.orders.name, .array(.order)), M(WireMember.nextCursor.name, .nextCursor)])
        case .loadFeed:
            return .object([M(WireMember.items.name, .array(.feedItem)), M(WireMember.nextCursor.name, .nextCursor)])
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

import Domain

// The wire shapes of the entities, as Transport/Wire/JSONWriter+Entities.swift writes them, and
// of the values requests carry.
extension WireSchema {
    /// A time: ISO-8601 UTC with milliseconds, e.g. `2026-11-27T13:04:20.266Z`.
    static let time = WireSchema.string(pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, description: "ISO-8601 UTC with milliseconds")
    /// The longest entity id a request may carry, in characters.
    public static let maximumIdentifierLength = 128
    /// An entity id in a request: a non-empty string of at most ``maximumIdentifierLength`` characters.
    static let id = WireSchema.string(minLength: 1, maxLength: maximumIdentifierLength)
    /// An id in a reply.
    static let replyId = WireSchema.string(minLength: 1)
    /// A required text the service trims, non-empty after trimming, of at most `maximum`
    /// characters after trimming.
    static func trimmed(_ maximum: Int) -> WireSchema {
        .string(minLength: 1, description: "trimmed; not blank; at most \(maximum) characters")
    }
    /// An optional text the service trims (blank means none), at most `maximum` characters.
    static func optionalTrimmed(_ maximum: Int) -> WireSchema {
        .string(description: "trimmed; blank means none; at most \(maximum) characters")
    }
    /// A page size: 1…500, default 50.
    static let limit = WireSchema.integer(minimum: PageRequest.limitRange.lowerBound, maximum: PageRequest.limitRange.upperBound, description: "default \(PageRequest.defaultLimit)")
    /// An opaque cursor from a previous page of the same listing.
    static let cursor = WireSchema.string(maxLength: PageCursor.maximumTokenLength, description: "nextCursor of a previous page of the same listing")
    /// A page's `nextCursor`: `null` on the last page.
    static let nextCursor = WireSchema.nullable(.string(minLength: 1))
    /// A supported ISO 4217 code.
    static let currency = WireSchema.string(values: Currency.supported.map(\.code))

    /// user {id, name, email, joinedAt, isActive, subscriptionActiveUntil}
    static let user = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.name.name, .string()), Member(WireMember.email.name, .string()), Member(WireMember.joinedAt.name, time),
        Member(WireMember.isActive.name, .boolean), Member(WireMember.subscriptionActiveUntil.name, .nullable(time)),
    ])

    /// profile {id, name, email, membershipTier, canAccessPremiumContent}
    static let profile = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.name.name, .string()), Member(WireMember.email.name, .string()),
        Member(WireMember.membershipTier.name, .string(values: MembershipTier.allCases.map(\.rawValue))), Member(WireMember.canAccessPremiumContent.name, .boolean),
    ])

    /// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude,
    /// longitude, imageUrl, phoneNumber, website, openingHours[, isFavorite]}
    static let restaurant = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.name.name, .string()), Member(WireMember.cuisine.name, .string()),
        Member(WireMember.rating.name, .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound)),
        Member(WireMember.reviewCount.name, .integer(minimum: 0)),
        Member(WireMember.priceLevel.name, .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound)),
        Member(WireMember.address.name, .string()),
        Member(WireMember.latitude.name, .number(minimum: Restaurant.latitudes.lowerBound, maximum: Restaurant.latitudes.upperBound)),
        Member(WireMember.longitude.name, .number(minimum: Restaurant.longitudes.lowerBound, maximum: Restaurant.longitudes.upperBound)),
        Member(WireMember.imageUrl.name, .nullable(.string())), Member(WireMember.phoneNumber.name, .nullable(.string())), Member(WireMember.website.name, .nullable(.string())),
        Member(WireMember.openingHours.name, .array(.string())),
        Member(WireMember.isFavorite.name, .boolean, required: false),
    ])

    /// review {id, restaurantId, userId, rating, text, createdAt}
    static let review = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.restaurantId.name, replyId), Member(WireMember.userId.name, replyId),
        Member(WireMember.rating.name, .integer(minimum: Review.ratings.lowerBound, maximum: Review.ratings.upperBound)),
        Member(WireMember.text.name, .string()), Member(WireMember.createdAt.name, time),
    ])

    /// item {id, restaurantId, name, priceCents, currency, stock}
    static let item = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.restaurantId.name, replyId), Member(WireMember.name.name, .string()),
        Member(WireMember.priceCents.name, .integer(minimum: MenuItem.prices.lowerBound, maximum: MenuItem.prices.upperBound)),
        Member(WireMember.currency.name, .string()), Member(WireMember.stock.name, .integer(minimum: 0, maximum: MenuItem.stocks.upperBound)),
    ])

    /// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents,
    /// discountCents, taxCents, totalCents, currency, deliveryAddress, createdAt, status,
    /// cancelledAt}
    static let order = WireSchema.object([
        Member(WireMember.id.name, replyId), Member(WireMember.userId.name, replyId),
        Member(WireMember.items.name, .array(.object([
            Member(WireMember.itemId.name, replyId), Member(WireMember.quantity.name, .integer(minimum: Order.quantities.lowerBound, maximum: Order.quantities.upperBound)),
            Member(WireMember.unitPriceCents.name, .integer(minimum: MenuItem.prices.lowerBound)),
        ]), minItems: 1, maxItems: Order.maximumLines)),
        Member(WireMember.subtotalCents.name, .integer(minimum: 0)), Member(WireMember.discountCents.name, .integer(minimum: 0)),
        Member(WireMember.taxCents.name, .integer(minimum: 0)), Member(WireMember.totalCents.name, .integer(minimum: 0)),
        Member(WireMember.currency.name, .string()), Member(WireMember.deliveryAddress.name, .string()), Member(WireMember.createdAt.name, time),
        Member(WireMember.status.name, .string(values: Order.Status.allCases.map(\.rawValue))), Member(WireMember.cancelledAt.name, .nullable(time)),
    ])

    /// feed item {id, title, imageUrl}
    static let feedItem = WireSchema.object([Member(WireMember.id.name, replyId), Member(WireMember.title.name, .string()), Member(WireMember.imageUrl.name, .nullable(.string()))])

    /// `[{itemId, stock}]`: the stock an order's items have after it, in line order.
    static let stockLeft = WireSchema.array(.object([
        Member(WireEvent.DataKey.itemId.name, replyId), Member(WireEvent.DataKey.stock.name, .integer(minimum: 0)),
    ]))
}

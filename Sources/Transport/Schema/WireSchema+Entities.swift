import Domain
import WireContract

// The wire shapes of the entities, as Transport/Wire/JSONWriter+Entities.swift writes them, and
// of the values requests carry.
extension WireSchema {
    /// A time: ISO-8601 UTC with milliseconds, e.g. `2026-11-27T13:04:20.266Z`.
    static let time = WireSchema.string(pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, description: "ISO-8601 UTC with milliseconds")
    /// An entity id in a request: a non-empty string of at most 128 characters.
    static let id = WireSchema.string(minLength: 1, maxLength: Params.maximumIdentifierLength)
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
        Member("id", replyId), Member("name", .string()), Member("email", .string()), Member("joinedAt", time),
        Member("isActive", .boolean), Member("subscriptionActiveUntil", .nullable(time)),
    ])

    /// profile {id, name, email, membershipTier, canAccessPremiumContent}
    static let profile = WireSchema.object([
        Member("id", replyId), Member("name", .string()), Member("email", .string()),
        Member("membershipTier", .string(values: MembershipTier.allCases.map(\.rawValue))), Member("canAccessPremiumContent", .boolean),
    ])

    /// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude,
    /// longitude, imageUrl, phoneNumber, website, openingHours[, isFavorite]}
    static let restaurant = WireSchema.object([
        Member("id", replyId), Member("name", .string()), Member("cuisine", .string()),
        Member("rating", .number(minimum: Restaurant.ratings.lowerBound, maximum: Restaurant.ratings.upperBound)),
        Member("reviewCount", .integer(minimum: 0)),
        Member("priceLevel", .integer(minimum: Restaurant.priceLevels.lowerBound, maximum: Restaurant.priceLevels.upperBound)),
        Member("address", .string()),
        Member("latitude", .number(minimum: Restaurant.latitudes.lowerBound, maximum: Restaurant.latitudes.upperBound)),
        Member("longitude", .number(minimum: Restaurant.longitudes.lowerBound, maximum: Restaurant.longitudes.upperBound)),
        Member("imageUrl", .nullable(.string())), Member("phoneNumber", .nullable(.string())), Member("website", .nullable(.string())),
        Member("openingHours", .array(.string())),
        Member("isFavorite", .boolean, required: false),
    ])

    /// review {id, restaurantId, userId, rating, text, createdAt}
    static let review = WireSchema.object([
        Member("id", replyId), Member("restaurantId", replyId), Member("userId", replyId),
        Member("rating", .integer(minimum: Review.ratings.lowerBound, maximum: Review.ratings.upperBound)),
        Member("text", .string()), Member("createdAt", time),
    ])

    /// item {id, restaurantId, name, priceCents, currency, stock}
    static let item = WireSchema.object([
        Member("id", replyId), Member("restaurantId", replyId), Member("name", .string()),
        Member("priceCents", .integer(minimum: MenuItem.prices.lowerBound, maximum: MenuItem.prices.upperBound)),
        Member("currency", .string()), Member("stock", .integer(minimum: 0, maximum: MenuItem.stocks.upperBound)),
    ])

    /// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents,
    /// discountCents, taxCents, totalCents, currency, deliveryAddress, createdAt, status,
    /// cancelledAt}
    static let order = WireSchema.object([
        Member("id", replyId), Member("userId", replyId),
        Member("items", .array(.object([
            Member("itemId", replyId), Member("quantity", .integer(minimum: Order.quantities.lowerBound, maximum: Order.quantities.upperBound)),
            Member("unitPriceCents", .integer(minimum: MenuItem.prices.lowerBound)),
        ]), minItems: 1, maxItems: Order.maximumLines)),
        Member("subtotalCents", .integer(minimum: 0)), Member("discountCents", .integer(minimum: 0)),
        Member("taxCents", .integer(minimum: 0)), Member("totalCents", .integer(minimum: 0)),
        Member("currency", .string()), Member("deliveryAddress", .string()), Member("createdAt", time),
        Member("status", .string(values: Order.Status.allCases.map(\.rawValue))), Member("cancelledAt", .nullable(time)),
    ])

    /// feed item {id, title, imageUrl}
    static let feedItem = WireSchema.object([Member("id", replyId), Member("title", .string()), Member("imageUrl", .nullable(.string()))])

    /// `[{itemId, stock}]`: the stock an order's items have after it, in line order.
    static let stockLeft = WireSchema.array(.object([
        Member(WireEvent.DataKey.itemId.name, replyId), Member(WireEvent.DataKey.stock.name, .integer(minimum: 0)),
    ]))
}

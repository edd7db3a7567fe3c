import Domain
import WireJSON

// Wire shapes of the domain entities (camelCase, ISO-8601 UTC times, money in minor units).
extension JSONWriter {
    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func timestamp(_ value: Timestamp) {
        string(ISO8601.string(from: value))
    }

    mutating func optionalTimestamp(_ value: Timestamp?) {
        if let value { timestamp(value) } else { null() }
    }

    /// user {id, name, email, joinedAt, isActive, subscriptionActiveUntil}
    mutating func user(_ user: User) {
        beginObject()
        key(literal: "id"); string(user.id.rawValue)
        key(literal: "name"); string(user.name)
        key(literal: "email"); string(user.email.value)
        key(literal: "joinedAt"); timestamp(user.joinedAt)
        key(literal: "isActive"); bool(user.isActive)
        key(literal: "subscriptionActiveUntil"); optionalTimestamp(user.subscriptionActiveUntil)
        endObject()
    }

    /// profile {id, name, email, membershipTier, canAccessPremiumContent}
    mutating func profile(_ profile: UserProfile) {
        beginObject()
        key(literal: "id"); string(profile.id.rawValue)
        key(literal: "name"); string(profile.name)
        key(literal: "email"); string(profile.email.value)
        key(literal: "membershipTier"); string(profile.membershipTier.rawValue)
        key(literal: "canAccessPremiumContent"); bool(profile.canAccessPremiumContent)
        endObject()
    }

    /// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude,
    /// longitude, imageUrl, phoneNumber, website, openingHours[, isFavorite]}
    mutating func restaurant(_ restaurant: Restaurant, isFavorite: Bool? = nil) {
        beginObject()
        key(literal: "id"); string(restaurant.id.rawValue)
        key(literal: "name"); string(restaurant.name)
        key(literal: "cuisine"); string(restaurant.cuisine)
        key(literal: "rating"); double(restaurant.rating)
        key(literal: "reviewCount"); int(restaurant.reviewCount)
        key(literal: "priceLevel"); int(restaurant.priceLevel)
        key(literal: "address"); string(restaurant.address)
        key(literal: "latitude"); double(restaurant.latitude)
        key(literal: "longitude"); double(restaurant.longitude)
        key(literal: "imageUrl"); optionalString(restaurant.imageUrl)
        key(literal: "phoneNumber"); optionalString(restaurant.phoneNumber)
        key(literal: "website"); optionalString(restaurant.website)
        key(literal: "openingHours")
        beginArray()
        for line in restaurant.openingHours { string(line) }
        endArray()
        if let isFavorite {
            key(literal: "isFavorite"); bool(isFavorite)
        }
        endObject()
    }

    /// review {id, restaurantId, userId, rating, text, createdAt}
    mutating func review(_ review: Review) {
        beginObject()
        key(literal: "id"); string(review.id.rawValue)
        key(literal: "restaurantId"); string(review.restaurantId.rawValue)
        key(literal: "userId"); string(review.userId.rawValue)
        key(literal: "rating"); int(review.rating)
        key(literal: "text"); string(review.text)
        key(literal: "createdAt"); timestamp(review.createdAt)
        endObject()
    }

    /// item {id, restaurantId, name, priceCents, currency, stock}
    mutating func menuItem(_ item: MenuItem) {
        beginObject()
        key(literal: "id"); string(item.id.rawValue)
        key(literal: "restaurantId"); string(item.restaurantId.rawValue)
        key(literal: "name"); string(item.name)
        key(literal: "priceCents"); int(item.price.minorUnits)
        key(literal: "currency"); string(item.price.currency.code)
        key(literal: "stock"); int(item.stock)
        endObject()
    }

    /// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents,
    /// discountCents, taxCents, totalCents, currency, deliveryAddress, createdAt, status,
    /// cancelledAt}
    mutating func order(_ order: Order) {
        beginObject()
        key(literal: "id"); string(order.id.rawValue)
        key(literal: "userId"); string(order.userId.rawValue)
        key(literal: "items")
        beginArray()
        for line in order.lines {
            beginObject()
            key(literal: "itemId"); string(line.itemId.rawValue)
            key(literal: "quantity"); int(line.quantity)
            key(literal: "unitPriceCents"); int(line.unitPriceCents)
            endObject()
        }
        endArray()
        key(literal: "subtotalCents"); int(order.subtotalCents)
        key(literal: "discountCents"); int(order.discountCents)
        key(literal: "taxCents"); int(order.taxCents)
        key(literal: "totalCents"); int(order.totalCents)
        key(literal: "currency"); string(order.currency.code)
        key(literal: "deliveryAddress"); string(order.deliveryAddress)
        key(literal: "createdAt"); timestamp(order.createdAt)
        key(literal: "status"); string(order.status.rawValue)
        key(literal: "cancelledAt"); optionalTimestamp(order.cancelledAt)
        endObject()
    }

    /// feed item {id, title, imageUrl}
    mutating func feedItem(_ item: FeedItem) {
        beginObject()
        key(literal: "id"); string(item.id.rawValue)
        key(literal: "title"); string(item.title)
        key(literal: "imageUrl"); optionalString(item.imageUrl)
        endObject()
    }

    /// `"key": [ … ]` with each element written by `write`.
    mutating func array<Element>(_ key: StaticString, _ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        self.key(literal: key)
        beginArray()
        for element in elements { write(&self, element) }
        endArray()
    }

    /// `"nextCursor": "…"` or `null`.
    mutating func nextCursor(_ cursor: PageCursor?) {
        key(literal: "nextCursor")
        optionalString(cursor?.token)
    }
}

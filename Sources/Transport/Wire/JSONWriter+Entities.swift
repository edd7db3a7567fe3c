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

    /// user {id, name, email, joinedAt, isActive, subscriptionActiveUntil}
    mutating func user(_ user: User) {
        beginObject()
        key("id"); string(user.id.rawValue)
        key("name"); string(user.name)
        key("email"); string(user.email.value)
        key("joinedAt"); timestamp(user.joinedAt)
        key("isActive"); bool(user.isActive)
        key("subscriptionActiveUntil")
        if let until = user.subscriptionActiveUntil { timestamp(until) } else { null() }
        endObject()
    }

    /// profile {id, name, email, membershipTier, canAccessPremiumContent}
    mutating func profile(_ profile: UserProfile) {
        beginObject()
        key("id"); string(profile.id.rawValue)
        key("name"); string(profile.name)
        key("email"); string(profile.email.value)
        key("membershipTier"); string(profile.membershipTier.rawValue)
        key("canAccessPremiumContent"); bool(profile.canAccessPremiumContent)
        endObject()
    }

    /// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude,
    /// longitude, imageUrl, phoneNumber, website, openingHours[, isFavorite]}
    mutating func restaurant(_ restaurant: Restaurant, isFavorite: Bool? = nil) {
        beginObject()
        key("id"); string(restaurant.id.rawValue)
        key("name"); string(restaurant.name)
        key("cuisine"); string(restaurant.cuisine)
        key("rating"); double(restaurant.rating)
        key("reviewCount"); int(restaurant.reviewCount)
        key("priceLevel"); int(restaurant.priceLevel)
        key("address"); string(restaurant.address)
        key("latitude"); double(restaurant.latitude)
        key("longitude"); double(restaurant.longitude)
        key("imageUrl"); optionalString(restaurant.imageUrl)
        key("phoneNumber"); optionalString(restaurant.phoneNumber)
        key("website"); optionalString(restaurant.website)
        key("openingHours")
        beginArray()
        for line in restaurant.openingHours { string(line) }
        endArray()
        if let isFavorite {
            key("isFavorite"); bool(isFavorite)
        }
        endObject()
    }

    /// review {id, restaurantId, userId, rating, text, createdAt}
    mutating func review(_ review: Review) {
        beginObject()
        key("id"); string(review.id.rawValue)
        key("restaurantId"); string(review.restaurantId.rawValue)
        key("userId"); string(review.userId.rawValue)
        key("rating"); int(review.rating)
        key("text"); string(review.text)
        key("createdAt"); timestamp(review.createdAt)
        endObject()
    }

    /// item {id, restaurantId, name, priceCents, currency, stock}
    mutating func menuItem(_ item: MenuItem) {
        beginObject()
        key("id"); string(item.id.rawValue)
        key("restaurantId"); string(item.restaurantId.rawValue)
        key("name"); string(item.name)
        key("priceCents"); int(item.price.minorUnits)
        key("currency"); string(item.price.currency.code)
        key("stock"); int(item.stock)
        endObject()
    }

    /// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents,
    /// discountCents, taxCents, totalCents, currency, deliveryAddress, createdAt}
    mutating func order(_ order: Order) {
        beginObject()
        key("id"); string(order.id.rawValue)
        key("userId"); string(order.userId.rawValue)
        key("items")
        beginArray()
        for line in order.lines {
            beginObject()
            key("itemId"); string(line.itemId.rawValue)
            key("quantity"); int(line.quantity)
            key("unitPriceCents"); int(line.unitPriceCents)
            endObject()
        }
        endArray()
        key("subtotalCents"); int(order.subtotalCents)
        key("discountCents"); int(order.discountCents)
        key("taxCents"); int(order.taxCents)
        key("totalCents"); int(order.totalCents)
        key("currency"); string(order.currency.code)
        key("deliveryAddress"); string(order.deliveryAddress)
        key("createdAt"); timestamp(order.createdAt)
        endObject()
    }

    /// feed item {id, title, imageUrl}
    mutating func feedItem(_ item: FeedItem) {
        beginObject()
        key("id"); string(item.id.rawValue)
        key("title"); string(item.title)
        key("imageUrl"); optionalString(item.imageUrl)
        endObject()
    }

    /// `"key": [ … ]` with each element written by `write`.
    mutating func array<Element>(_ key: String, _ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        self.key(key)
        beginArray()
        for element in elements { write(&self, element) }
        endArray()
    }

    /// `"nextCursor": "…"` or `null`.
    mutating func nextCursor(_ cursor: PageCursor?) {
        key("nextCursor")
        optionalString(cursor?.token)
    }
}

import Domain
import WireJSON
import WireContract

// Wire shapes of the domain entities (camelCase, ISO-8601 UTC times, money in minor units).
extension JSONWriter {
    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func timestamp(_ value: Timestamp) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.quotedLength) { buffer in
            guard ISO8601.write(value, quotedInto: buffer) else { return false }
            rawJSON(UnsafeRawBufferPointer(buffer))
            return true
        }
        if !written { string(ISO8601.string(from: value)) }
    }

    mutating func optionalTimestamp(_ value: Timestamp?) {
        if let value { timestamp(value) } else { null() }
    }

    /// user {id, name, email, joinedAt, isActive, subscriptionActiveUntil}
    mutating func user(_ user: User) {
        beginObject()
        key(literal: WireMember.id.literal); string(user.id.rawValue)
        key(literal: WireMember.name.literal); string(user.name)
        key(literal: WireMember.email.literal); string(user.email.value)
        key(literal: WireMember.joinedAt.literal); timestamp(user.joinedAt)
        key(literal: WireMember.isActive.literal); bool(user.isActive)
        key(literal: WireMember.subscriptionActiveUntil.literal); optionalTimestamp(user.subscriptionActiveUntil)
        endObject()
    }

    /// profile {id, name, email, membershipTier, canAccessPremiumContent}
    mutating func profile(_ profile: UserProfile) {
        beginObject()
        key(literal: WireMember.id.literal); string(profile.id.rawValue)
        key(literal: WireMember.name.literal); string(profile.name)
        key(literal: WireMember.email.literal); string(profile.email.value)
        key(literal: WireMember.membershipTier.literal); string(profile.membershipTier.rawValue)
        key(literal: WireMember.canAccessPremiumContent.literal); bool(profile.canAccessPremiumContent)
        endObject()
    }

    /// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude,
    /// longitude, imageUrl, phoneNumber, website, openingHours[, isFavorite]}
    mutating func restaurant(_ restaurant: Restaurant, isFavorite: Bool? = nil) {
        beginObject()
        RestaurantJSONMemo.shared.withMembers(of: restaurant) { rawMembers($0) }
        if let isFavorite {
            key(literal: WireMember.isFavorite.literal); bool(isFavorite)
        }
        endObject()
    }

    /// The members of a restaurant's object but `isFavorite`, in the object being written;
    /// ``RestaurantJSONMemo`` keeps what it writes.
    mutating func restaurantMembers(_ restaurant: Restaurant) {
        key(literal: WireMember.id.literal); string(restaurant.id.rawValue)
        key(literal: WireMember.name.literal); string(restaurant.name)
        key(literal: WireMember.cuisine.literal); string(restaurant.cuisine)
        key(literal: WireMember.rating.literal); double(restaurant.rating)
        key(literal: WireMember.reviewCount.literal); int(restaurant.reviewCount)
        key(literal: WireMember.priceLevel.literal); int(restaurant.priceLevel)
        key(literal: WireMember.address.literal); string(restaurant.address)
        key(literal: WireMember.latitude.literal); double(restaurant.latitude)
        key(literal: WireMember.longitude.literal); double(restaurant.longitude)
        key(literal: WireMember.imageUrl.literal); optionalString(restaurant.imageUrl)
        key(literal: WireMember.phoneNumber.literal); optionalString(restaurant.phoneNumber)
        key(literal: WireMember.website.literal); optionalString(restaurant.website)
        key(literal: WireMember.openingHours.literal)
        beginArray()
        for line in restaurant.openingHours { string(line) }
        endArray()
    }

    /// review {id, restaurantId, userId, rating, text, createdAt}
    mutating func review(_ review: Review) {
        beginObject()
        key(literal: WireMember.id.literal); string(review.id.rawValue)
        key(literal: WireMember.restaurantId.literal); string(review.restaurantId.rawValue)
        key(literal: WireMember.userId.literal); string(review.userId.rawValue)
        key(literal: WireMember.rating.literal); int(review.rating)
        key(literal: WireMember.text.literal); string(review.text)
        key(literal: WireMember.createdAt.literal); timestamp(review.createdAt)
        endObject()
    }

    /// item {id, restaurantId, name, priceCents, currency, stock}
    mutating func menuItem(_ item: MenuItem) {
        beginObject()
        key(literal: WireMember.id.literal); string(item.id.rawValue)
        key(literal: WireMember.restaurantId.literal); string(item.restaurantId.rawValue)
        key(literal: WireMember.name.literal); string(item.name)
        key(literal: WireMember.priceCents.literal); int(item.price.minorUnits)
        key(literal: WireMember.currency.literal); string(item.price.currency.code)
        key(literal: WireMember.stock.literal); int(item.stock)
        endObject()
    }

    /// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents,
    /// discountCents, taxCents, totalCents, currency, deliveryAddress, createdAt, status,
    /// cancelledAt}
    mutating func order(_ order: Order) {
        beginObject()
        key(literal: WireMember.id.literal); string(order.id.rawValue)
        key(literal: WireMember.userId.literal); string(order.userId.rawValue)
        key(literal: WireMember.items.literal)
        beginArray()
        for line in order.lines {
            beginObject()
            key(literal: WireMember.itemId.literal); string(line.itemId.rawValue)
            key(literal: WireMember.quantity.literal); int(line.quantity)
            key(literal: WireMember.unitPriceCents.literal); int(line.unitPriceCents)
            endObject()
        }
        endArray()
        key(literal: WireMember.subtotalCents.literal); int(order.subtotalCents)
        key(literal: WireMember.discountCents.literal); int(order.discountCents)
        key(literal: WireMember.taxCents.literal); int(order.taxCents)
        key(literal: WireMember.totalCents.literal); int(order.totalCents)
        key(literal: WireMember.currency.literal); string(order.currency.code)
        key(literal: WireMember.deliveryAddress.literal); string(order.deliveryAddress)
        key(literal: WireMember.createdAt.literal); timestamp(order.createdAt)
        key(literal: WireMember.status.literal); string(order.status.rawValue)
        key(literal: WireMember.cancelledAt.literal); optionalTimestamp(order.cancelledAt)
        endObject()
    }

    /// feed item {id, title, imageUrl}
    mutating func feedItem(_ item: FeedItem) {
        beginObject()
        key(literal: WireMember.id.literal); string(item.id.rawValue)
        key(literal: WireMember.title.literal); string(item.title)
        key(literal: WireMember.imageUrl.literal); optionalString(item.imageUrl)
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
        key(literal: WireMember.nextCursor.literal)
        optionalString(cursor?.token)
    }
}

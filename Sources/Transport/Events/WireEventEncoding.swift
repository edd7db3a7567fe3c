import Domain
import WireContract
import WireJSON

/// The wire form of every event: its type's name (``EventType``) and its data, a JSON object of
/// the same shapes as the use cases' results. The stores encode each event with it when they
/// append it, so the log, the live stream and the replies agree byte for byte: a user event's
/// `user` is what RegisterUser answered.
public struct WireEventEncoding: EventEncoding {
    /// The encoding.
    public init() {}

    /// The event's type and data.
    public func encode(_ event: DomainEvent) -> EncodedEvent {
        var writer = JSONWriter(capacity: 512)
        let type: EventType
        switch event {
        case .userRegistered(let user):
            type = .userRegistered
            UseCaseResult.user(user).write(to: &writer)
        case .userProfileUpdated(let user):
            type = .userProfileUpdated
            UseCaseResult.user(user).write(to: &writer)
        case .userDeactivated(let user):
            type = .userDeactivated
            UseCaseResult.user(user).write(to: &writer)
        case .subscriptionStarted(let user):
            type = .subscriptionStarted
            UseCaseResult.user(user).write(to: &writer)
        case .restaurantCreated(let restaurant):
            type = .restaurantCreated
            UseCaseResult.restaurant(restaurant, isFavorite: nil).write(to: &writer)
        case .favoriteSaved(let userId, let restaurantId, let count):
            type = .favoriteSaved
            writer.favoriteChange(userId: userId, restaurantId: restaurantId, favoriteCount: count)
        case .favoriteRemoved(let userId, let restaurantId, let count):
            type = .favoriteRemoved
            writer.favoriteChange(userId: userId, restaurantId: restaurantId, favoriteCount: count)
        case .reviewAdded(let review, let rating):
            type = .reviewAdded
            UseCaseResult.review(review, restaurantRating: rating).write(to: &writer)
        case .menuItemAdded(let item):
            type = .menuItemAdded
            UseCaseResult.item(item).write(to: &writer)
        case .menuItemRestocked(let item):
            type = .menuItemRestocked
            UseCaseResult.item(item).write(to: &writer)
        case .orderPlaced(let order, let stock):
            type = .orderPlaced
            writer.orderChange(order, stock: stock)
        case .orderCancelled(let order, let stock):
            type = .orderCancelled
            writer.orderChange(order, stock: stock)
        }
        return EncodedEvent(type: type.rawValue, data: writer.finish())
    }
}

extension JSONWriter {
    /// `{"userId", "restaurantId", "favoriteCount"}`: FavoriteSaved's and FavoriteRemoved's data.
    mutating func favoriteChange(userId: UserID, restaurantId: RestaurantID, favoriteCount: Int) {
        beginObject()
        key(literal: WireEvent.DataKey.userId.literal); string(userId.rawValue)
        key(literal: WireEvent.DataKey.restaurantId.literal); string(restaurantId.rawValue)
        key(literal: WireEvent.DataKey.favoriteCount.literal); int(favoriteCount)
        endObject()
    }

    /// `{"order": order, "stock": [{"itemId", "stock"}]}`: an order event's data.
    mutating func orderChange(_ order: Order, stock: [ItemStock]) {
        beginObject()
        key(literal: WireMember.order.literal); self.order(order)
        key(literal: WireEvent.DataKey.stock.literal)
        beginArray()
        for left in stock {
            beginObject()
            key(literal: WireEvent.DataKey.itemId.literal); string(left.itemId.rawValue)
            key(literal: WireEvent.DataKey.stock.literal); int(left.stock)
            endObject()
        }
        endArray()
        endObject()
    }

    /// An event as the log and the live stream send it:
    /// `{"seq", "type", "at", "key", "data"[, "traceparent"]}`.
    mutating func loggedEvent(_ event: LoggedEvent) {
        beginObject()
        key(literal: WireEvent.Key.seq.literal); int(event.seq)
        key(literal: WireEvent.Key.type.literal); string(event.type)
        key(literal: WireEvent.Key.at.literal); timestamp(event.at)
        key(literal: WireEvent.Key.key.literal); string(event.key)
        key(literal: WireEvent.Key.data.literal); rawJSON(event.data)
        if let traceparent = event.traceparent {
            key(literal: WireEvent.Key.traceparent.literal); string(traceparent)
        }
        endObject()
    }
}

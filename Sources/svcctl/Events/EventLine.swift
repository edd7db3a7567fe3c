import RestaurantClient
import WireJSON
import WireContract

/// One event as `svcctl events` prints it for people: `seq  time  type  key  summary`, the
/// summary saying in a few words what changed (the data's members as the protocol names them).
enum EventLine {
    /// The line of `event`.
    static func render(_ event: RestaurantEvent) -> String {
        let seq = String(event.seq)
        let type = event.type.count < 19 ? event.type + String(repeating: " ", count: 19 - event.type.count) : event.type
        return "\(String(repeating: " ", count: max(0, 7 - seq.count)))\(seq)  \(event.at)  \(type)  \(event.key)  \(summary(event))"
    }

    /// What changed, in a few words.
    static func summary(_ event: RestaurantEvent) -> String {
        let data = JSONValue.object(event.data)
        switch event.eventType {
        case .userRegistered?, .userProfileUpdated?, .userDeactivated?, .subscriptionStarted?:
            let user = data[WireMember.user.name]
            let who = "\(text(user?[WireMember.name.name])) <\(text(user?[WireMember.email.name]))>"
            switch event.eventType {
            case .userDeactivated?: return "\(who) deactivated"
            case .subscriptionStarted?: return "\(who) subscribed until \(text(user?[WireMember.subscriptionActiveUntil.name]))"
            default: return who
            }
        case .restaurantCreated?:
            let restaurant = data[WireMember.restaurant.name]
            return "\"\(text(restaurant?[WireMember.name.name]))\" \(text(restaurant?[WireMember.cuisine.name])), price level \(text(restaurant?[WireMember.priceLevel.name]))"
        case .favoriteSaved?, .favoriteRemoved?:
            let verb = event.eventType == .favoriteSaved ? "saved" : "removed"
            return "\(verb) \(text(data[WireMember.restaurantId.name])); \(text(data[WireMember.favoriteCount.name])) favourites"
        case .reviewAdded?:
            let review = data[WireMember.review.name]
            return "\(text(review?[WireMember.rating.name]))/5 by \(text(review?[WireMember.userId.name])); rating now \(text(data[WireMember.restaurantRating.name]))"
        case .menuItemAdded?, .menuItemRestocked?:
            let item = data[WireMember.item.name]
            return "\"\(text(item?[WireMember.name.name]))\" \(text(item?[WireMember.currency.name])) \(text(item?[WireMember.priceCents.name])) cents; stock \(text(item?[WireMember.stock.name]))"
        case .orderPlaced?, .orderCancelled?:
            let order = data[WireMember.order.name]
            let lines = order?[WireMember.items.name]?.arrayValue?.count ?? 0
            let stock = (data[WireMember.stock.name]?.arrayValue ?? []).map { "\(text($0[WireMember.itemId.name]))=\(text($0[WireMember.stock.name]))" }.joined(separator: " ")
            return "by \(text(order?[WireMember.userId.name])), \(lines) line\(lines == 1 ? "" : "s"), total \(text(order?[WireMember.currency.name])) \(text(order?[WireMember.totalCents.name])) cents; stock \(stock)"
        case nil:
            return data.description
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        plainText(value)
    }
}

import RestaurantClient
import WireJSON

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
            let user = data["user"]
            let who = "\(text(user?["name"])) <\(text(user?["email"]))>"
            switch event.eventType {
            case .userDeactivated?: return "\(who) deactivated"
            case .subscriptionStarted?: return "\(who) subscribed until \(text(user?["subscriptionActiveUntil"]))"
            default: return who
            }
        case .restaurantCreated?:
            let restaurant = data["restaurant"]
            return "\"\(text(restaurant?["name"]))\" \(text(restaurant?["cuisine"])), price level \(text(restaurant?["priceLevel"]))"
        case .favoriteSaved?, .favoriteRemoved?:
            let verb = event.eventType == .favoriteSaved ? "saved" : "removed"
            return "\(verb) \(text(data["restaurantId"])); \(text(data["favoriteCount"])) favourites"
        case .reviewAdded?:
            let review = data["review"]
            return "\(text(review?["rating"]))/5 by \(text(review?["userId"])); rating now \(text(data["restaurantRating"]))"
        case .menuItemAdded?, .menuItemRestocked?:
            let item = data["item"]
            return "\"\(text(item?["name"]))\" \(text(item?["currency"])) \(text(item?["priceCents"])) cents; stock \(text(item?["stock"]))"
        case .orderPlaced?, .orderCancelled?:
            let order = data["order"]
            let lines = order?["items"]?.arrayValue?.count ?? 0
            let stock = (data["stock"]?.arrayValue ?? []).map { "\(text($0["itemId"]))=\(text($0["stock"]))" }.joined(separator: " ")
            return "by \(text(order?["userId"])), \(lines) line\(lines == 1 ? "" : "s"), total \(text(order?["currency"])) \(text(order?["totalCents"])) cents; stock \(stock)"
        case nil:
            return data.description
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        plainText(value)
    }
}

/// The event types of the contract, named as on the wire: an event's `type`, the first frame of
/// each live-stream message (what a subscriber filters by), and the names the event log's `types`
/// filter accepts.
public enum EventType: String, Sendable, Hashable, CaseIterable {
    case userRegistered = "UserRegistered"
    case userProfileUpdated = "UserProfileUpdated"
    case userDeactivated = "UserDeactivated"
    case subscriptionStarted = "SubscriptionStarted"
    case restaurantCreated = "RestaurantCreated"
    case favoriteSaved = "FavoriteSaved"
    case favoriteRemoved = "FavoriteRemoved"
    case reviewAdded = "ReviewAdded"
    case menuItemAdded = "MenuItemAdded"
    case menuItemRestocked = "MenuItemRestocked"
    case orderPlaced = "OrderPlaced"
    case orderCancelled = "OrderCancelled"

    /// Every type's name, comma separated, for messages that list them.
    public static var namesList: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}

extension EventType: CustomStringConvertible {
    /// The wire name.
    public var description: String { rawValue }
}

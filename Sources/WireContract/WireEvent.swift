/// The events of the contract on the wire: an event's members, the members of event data that
/// no use case's result has, the event log's params and result, and where the two event
/// endpoints bind. Spelled here and nowhere else.
///
/// - event `{"seq":…,"type":"…","at":"…","key":"…","data":{…}}` (plus `"traceparent"` when the
///   write carried one), the same object in the log's `events` and in a live message's second
///   frame (its first is the type);
/// - log request params `{"after": n, "limit": n, "types": ["…"]}` → result
///   `{"events": […], "lastSeq": n}`; a `gone` error adds `"firstSeq"`, the oldest seq kept.
public enum WireEvent {
    /// An event's members.
    public enum Key {
        /// `seq`: its place in the log, 1, 2, 3, … without gaps.
        public static let seq = WireKey("seq")
        /// `type`: an ``EventType``'s raw value.
        public static let type = WireKey("type")
        /// `at`: the write's time, ISO-8601 UTC.
        public static let at = WireKey("at")
        /// `key`: the id of the entity written.
        public static let key = WireKey("key")
        /// `data`: what changed.
        public static let data = WireKey("data")
        /// `traceparent`: the writing request's trace context, when it carried one.
        public static let traceparent = WireEnvelope.Key.traceparent
    }

    /// Members of event data that are not a use case's result member.
    public enum DataKey {
        /// `stock` (OrderPlaced, OrderCancelled): `[{itemId, stock}]`, the stock left per line.
        public static let stock = WireMember.stock
        /// `itemId` (in ``stock``).
        public static let itemId = WireMember.itemId
        /// `userId` (FavoriteSaved, FavoriteRemoved).
        public static let userId = WireMember.userId
        /// `restaurantId` (FavoriteSaved, FavoriteRemoved).
        public static let restaurantId = WireMember.restaurantId
        /// `favoriteCount` (FavoriteSaved, FavoriteRemoved).
        public static let favoriteCount = WireMember.favoriteCount
    }

    /// The event log's params.
    public enum Parameter {
        /// `after` (required): the seq to read after, ≥ 0.
        public static let after = WireKey("after")
        /// `limit`: 1…1000, default 100.
        public static let limit = WireMember.limit
        /// `types`: only these event types.
        public static let types = WireKey("types")
    }

    /// The event log's result members, and the extra member of its `gone` error.
    public enum Result {
        /// `events`: the events, in seq order.
        public static let events = WireKey("events")
        /// `lastSeq`: the highest seq in the whole log now.
        public static let lastSeq = WireKey("lastSeq")
        /// `firstSeq` (in a `gone` error object): the oldest seq the log keeps.
        public static let firstSeq = WireKey("firstSeq")
    }

    /// The live stream's port: port base + 50 (a PUB socket).
    public static let streamPortOffset = 50
    /// The event log's port: port base + 51 (a ROUTER socket, wire v1 envelope).
    public static let logPortOffset = 51
    /// The live stream's name in logs, statistics and thread names.
    public static let streamName = "EventStream"
    /// The event log's name in logs, statistics and thread names.
    public static let logName = "EventLog"
}

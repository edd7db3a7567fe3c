import Domain

extension EventType {
    /// The schema of this type's `data`, as ``WireEventEncoding`` writes it. An exhaustive
    /// switch: a new type does not compile without it.
    public var dataSchema: WireSchema {
        typealias M = WireSchema.Member
        switch self {
        case .userRegistered, .userProfileUpdated, .userDeactivated, .subscriptionStarted:
            return UseCaseName.registerUser.resultSchema
        case .restaurantCreated:
            return UseCaseName.createRestaurant.resultSchema
        case .favoriteSaved, .favoriteRemoved:
            return .object([
                M(WireEvent.DataKey.userId.name, .replyId), M(WireEvent.DataKey.restaurantId.name, .replyId),
                M(WireEvent.DataKey.favoriteCount.name, .integer(minimum: 0, maximum: Favorite.maximumPerUser)),
            ])
        case .reviewAdded:
            return UseCaseName.addReview.resultSchema
        case .menuItemAdded, .menuItemRestocked:
            return UseCaseName.addMenuItem.resultSchema
        case .orderPlaced, .orderCancelled:
            return .object([M(WireMember.order.name, .order), M(WireEvent.DataKey.stock.name, .stockLeft)])
        }
    }
}

extension WireSchema {
    /// The event log's params: `after` (≥ 0, required), `limit` (1…1000), `types`.
    static let eventLogParams = WireSchema.object([
        Member(WireEvent.Parameter.after.name, .integer(minimum: 0)),
        Member(WireEvent.Parameter.limit.name, .integer(minimum: ReadEventLog.limits.lowerBound, maximum: ReadEventLog.limits.upperBound, description: "default \(ReadEventLog.defaultLimit)"), required: false),
        Member(WireEvent.Parameter.types.name, .array(.string(values: EventType.allCases.map(\.rawValue))), required: false),
    ])

    /// An event as the log and the live stream send it; its `data` is checked by its type's
    /// schema.
    static let event = WireSchema.object([
        Member(WireEvent.Key.seq.name, .integer(minimum: 1)),
        Member(WireEvent.Key.type.name, .string(values: EventType.allCases.map(\.rawValue))),
        Member(WireEvent.Key.at.name, time), Member(WireEvent.Key.key.name, replyId),
        Member(WireEvent.Key.data.name, .anyObject),
        Member(WireEvent.Key.traceparent.name, .string(), required: false),
    ])

    /// The event log's result: `{"events": […], "lastSeq": n}`.
    static let eventLogResult = WireSchema.object([
        Member(WireEvent.Result.events.name, .array(event)), Member(WireEvent.Result.lastSeq.name, .integer(minimum: 0)),
    ])
}

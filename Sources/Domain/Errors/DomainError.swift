/// Why a use case refused a request. Each case maps to one wire error code in the transport.
public enum DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter is missing, of the wrong type or out of range; `field` names it.
    case invalidInput(field: String, reason: String)
    /// The entity with this id does not exist.
    case notFound(entity: String, id: String)
    /// The caller may not do this, e.g. the user is inactive.
    case unauthorized(reason: String)
    /// A business rule refused the request.
    case businessRule(BusinessRuleViolation)
    /// The request collides with existing data (a uniqueness rule).
    case conflict(reason: String)
    /// The event log no longer keeps the events asked for: it was pruned, and its oldest event
    /// now is `firstKeptSeq`.
    case gone(firstKeptSeq: Int64)

    /// A plain-words explanation suitable for an error reply.
    public var description: String {
        switch self {
        case .invalidInput(let field, let reason): "\(field): \(reason)"
        case .notFound(let entity, let id): "\(entity) \(id) not found"
        case .unauthorized(let reason): reason
        case .businessRule(let violation): violation.description
        case .conflict(let reason): reason
        case .gone(let first):
            "the event log no longer keeps the events asked for: its oldest event is seq \(first) (older ones were pruned); rebuild what you derived from the events, then read from after=\(first - 1)"
        }
    }
}

/// A business rule that refused a request.
public enum BusinessRuleViolation: Sendable, Hashable, CustomStringConvertible {
    /// The user already has the maximum number of favorites.
    case favoritesLimitReached(limit: Int)
    /// An item of the order does not have enough stock; nothing was taken.
    case insufficientStock(itemId: MenuItemID, requested: Int, available: Int)
    /// Subtotal minus discount is below the minimum order value.
    case orderBelowMinimum(minimumMinorUnits: Int, actualMinorUnits: Int)
    /// A restock would take an item's stock past the maximum; nothing was added.
    case stockAboveMaximum(itemId: MenuItemID, stock: Int, quantity: Int, maximum: Int)
    /// The order is older than the cancellation window; nothing changed.
    case cancellationWindowClosed(orderId: OrderID, windowMinutes: Int)

    /// A plain-words explanation.
    public var description: String {
        switch self {
        case .favoritesLimitReached(let limit):
            "a user may have at most \(limit) favorite restaurants"
        case .insufficientStock(let itemId, let requested, let available):
            "not enough stock for item \(itemId): requested \(requested), available \(available); nothing was ordered"
        case .orderBelowMinimum(let minimum, let actual):
            "order value after discount is \(actual) minor units; the minimum is \(minimum)"
        case .stockAboveMaximum(let itemId, let stock, let quantity, let maximum):
            "restocking \(quantity) would take the stock of item \(itemId) from \(stock) past the maximum of \(maximum); nothing was added"
        case .cancellationWindowClosed(let orderId, let minutes):
            "order \(orderId) was placed more than \(minutes) minutes ago and can no longer be cancelled; nothing changed"
        }
    }
}

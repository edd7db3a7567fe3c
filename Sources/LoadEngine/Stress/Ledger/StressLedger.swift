import WireJSON

/// What one client saw happen, in terms the invariant checks need: acknowledged writes (which
/// must be in the store), writes of unknown outcome (no answer, or an unexpected error), and
/// refusals. Merged over all clients at the end.
struct StressLedger: Sendable {
    /// Per user index: restaurants whose save was acknowledged.
    var savedFavorites: [Int: Set<String>] = [:]
    /// Per user index: restaurants whose save has an unknown outcome.
    var unknownFavorites: [Int: Set<String>] = [:]
    /// Per user index: saves refused by the cap (`business_rule`).
    var capRefusals: [Int: Int] = [:]
    /// Largest `favoriteCount` in any reply.
    var largestFavoriteCount = 0

    /// Per restaurant: acknowledged reviews.
    var reviews: [String: Int] = [:]
    /// Per restaurant: reviews of unknown outcome.
    var unknownReviews: [String: Int] = [:]

    /// Acknowledged orders by id: the `order` object of the reply, as JSON (read only by the
    /// checks after the load, so not parsed while it runs).
    var orders: [String: [UInt8]] = [:]
    /// Orders of unknown outcome.
    var unknownOrders = 0
    /// Orders refused for lack of stock (`business_rule`).
    var stockRefusals = 0
    /// Orders whose cancellation was acknowledged.
    var cancelledOrders: Set<String> = []

    /// Per item index: acknowledged restocked quantity.
    var restocked: [Int: Int] = [:]
    /// Per item index: restocked quantity of unknown outcome.
    var unknownRestocked: [Int: Int] = [:]

    /// Per contested email index: acknowledged registrations (user id, email as sent).
    var registrations: [Int: [StressRegistration]] = [:]
    /// Per contested email index: attempts refused as `conflict`.
    var conflicts: [Int: Int] = [:]
    /// Per contested email index: attempts of unknown outcome.
    var unknownRegistrations: [Int: Int] = [:]

    /// Rule breaks seen in replies during the run (e.g. a negative stock), first few kept.
    var observedViolations: [StressViolation] = []
    /// All rule breaks seen in replies, counted.
    var observedViolationCount = 0

    /// Records a rule break seen in a reply.
    mutating func observe(_ violation: StressViolation) {
        observedViolationCount += 1
        if observedViolations.count < 20 { observedViolations.append(violation) }
    }

    /// Adds `other`'s records to these.
    mutating func merge(_ other: StressLedger) {
        savedFavorites.merge(other.savedFavorites) { $0.union($1) }
        unknownFavorites.merge(other.unknownFavorites) { $0.union($1) }
        capRefusals.merge(other.capRefusals, uniquingKeysWith: +)
        largestFavoriteCount = max(largestFavoriteCount, other.largestFavoriteCount)
        reviews.merge(other.reviews, uniquingKeysWith: +)
        unknownReviews.merge(other.unknownReviews, uniquingKeysWith: +)
        orders.merge(other.orders) { first, _ in first }
        unknownOrders += other.unknownOrders
        stockRefusals += other.stockRefusals
        cancelledOrders.formUnion(other.cancelledOrders)
        restocked.merge(other.restocked, uniquingKeysWith: +)
        unknownRestocked.merge(other.unknownRestocked, uniquingKeysWith: +)
        registrations.merge(other.registrations, uniquingKeysWith: +)
        conflicts.merge(other.conflicts, uniquingKeysWith: +)
        unknownRegistrations.merge(other.unknownRegistrations, uniquingKeysWith: +)
        observedViolationCount += other.observedViolationCount
        for violation in other.observedViolations where observedViolations.count < 20 {
            observedViolations.append(violation)
        }
    }
}

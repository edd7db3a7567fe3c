import WireContract
import WireJSON

/// One request of a stress run, and what its answer means for the ledger. A class (immutable):
/// a request waiting for its reply is held and handed around by one reference, not copied
/// field by field.
final class StressRequest: Sendable {
    /// The use case it goes to.
    let useCase: UseCaseName
    /// Its params, as the JSON text sent.
    let paramsJSON: [UInt8]
    /// What an answer to it says about the store.
    let effect: Effect

    /// The use case's place in ``UseCaseName/allCases`` (tallies by use case without hashing).
    let useCaseIndex: Int

    /// The use cases in the order of ``useCaseIndex``.
    static let useCaseOrder = UseCaseName.allCases

    init(useCase: UseCaseName, paramsJSON: [UInt8], effect: Effect) {
        self.useCase = useCase
        self.paramsJSON = paramsJSON
        self.effect = effect
        useCaseIndex = Self.useCaseOrder.firstIndex(of: useCase)!
    }

    /// Its params as an object (for the rare uses beyond sending them: a resend, a message).
    var params: JSONObject {
        (try? JSONParser.parse(paramsJSON))?.objectValue ?? JSONObject()
    }

    /// What a request does, as far as the invariant checks care.
    enum Effect: Sendable {
        /// A read; `check` is what its result must satisfy.
        case read(ReadCheck)
        /// SaveFavoriteRestaurant of `restaurant` for user index `user`.
        case saveFavorite(user: Int, restaurant: String)
        /// RemoveFavoriteRestaurant for user index `user`.
        case removeFavorite(user: Int)
        /// AddReview of `restaurant`.
        case review(restaurant: String)
        /// PlaceOrder for user `userId`.
        case order(userId: String)
        /// CancelOrder of `orderId`.
        case cancel(orderId: String)
        /// RestockMenuItem of item index `item` by `quantity`.
        case restock(item: Int, quantity: Int)
        /// UpdateUserProfile to `name`.
        case updateProfile(name: String)
        /// RegisterUser of contested email index `email`, as `address`.
        case register(email: Int, address: String)
    }

    /// Rules a read's result must satisfy at any moment.
    enum ReadCheck: Sendable {
        case none
        /// GetMenu: no stock below 0.
        case menu
        /// GetFavoriteRestaurants: at most 100.
        case favorites
        /// GetRestaurant: rating within 0…5.
        case restaurant
    }

    /// Whether it changes the store (and so carries an idempotency key).
    var isWrite: Bool {
        if case .read = effect { return false }
        return true
    }

    /// Whether a successful answer's result changes nothing in the ledger (a read with no
    /// check): its reply need not be read past its first bytes.
    var resultIsUnchecked: Bool {
        if case .read(.none) = effect { return true }
        return false
    }

    /// The error code a correct service may answer to this request without anything being
    /// wrong (a business refusal the workload provokes on purpose), if any.
    var expectedRefusal: WireErrorCode? {
        switch effect {
        case .saveFavorite: .businessRule  // the cap of 100
        case .order: .businessRule  // not enough stock
        case .register: .conflict  // the email is taken
        default: nil
        }
    }

    /// Applies a successful reply's `result` (`nil` when the reply has none) to `ledger`,
    /// noting any rule it breaks. Only the members the checks need are read.
    func recordSuccess(_ result: JSONSkim?, in ledger: inout StressLedger) {
        switch effect {
        case .read(let check):
            switch check {
            case .none:
                break
            case .menu:
                result?[WireMember.items.name]?.forEachElement { item in
                    if let stock = item[WireMember.stock.name]?.intValue, stock < 0 {
                        ledger.observe(StressViolation(invariant: "stock", detail: "GetMenu answered stock \(stock) for item \(Wording.plain(item[WireMember.id.name]?.parsed))"))
                    }
                    return true
                }
            case .favorites:
                let count = result?[WireMember.restaurants.name]?.elementCount ?? 0
                if count > 100 {
                    ledger.observe(StressViolation(invariant: "favoritesCap", detail: "GetFavoriteRestaurants listed \(count) favourites for \(Wording.plain(params[WireMember.userId.name]))"))
                }
            case .restaurant:
                if let rating = result?[WireMember.restaurant.name]?[WireMember.rating.name]?.doubleValue, !(0...5).contains(rating) {
                    ledger.observe(StressViolation(invariant: "rating", detail: "GetRestaurant answered rating \(rating) for \(Wording.plain(params[WireMember.restaurantId.name]))"))
                }
            }
        case .saveFavorite(let user, let restaurant):
            ledger.savedFavorites[user, default: []].insert(restaurant)
            noteFavoriteCount(result, in: &ledger)
        case .removeFavorite:
            noteFavoriteCount(result, in: &ledger)
        case .review(let restaurant):
            ledger.reviews[restaurant, default: 0] += 1
            if let rating = result?[WireMember.restaurantRating.name]?.doubleValue, !(1...5).contains(rating) {
                ledger.observe(StressViolation(invariant: "rating", detail: "AddReview answered restaurantRating \(rating) for \(restaurant)"))
            }
        case .order:
            // The order is kept whole: the checks after the load compare it with the store.
            if let order = result?[WireMember.order.name], order.isObject, let id = order[WireMember.id.name]?.stringValue {
                ledger.orders[id] = Array(order.rawBytes)
            } else {
                ledger.observe(StressViolation(invariant: "orderTotals", detail: "PlaceOrder answered ok without an order id"))
            }
        case .cancel(let orderId):
            ledger.cancelledOrders.insert(orderId)
            let order = result?[WireMember.order.name]
            if order?[WireMember.id.name]?.stringValue != orderId || order?[WireMember.status.name]?.stringValue != "cancelled" {
                ledger.observe(StressViolation(invariant: "stock", detail: "CancelOrder of \(orderId) answered ok with \(Wording.plain(order?.parsed))"))
            }
        case .restock(let item, let quantity):
            ledger.restocked[item, default: 0] += quantity
            if let stock = result?[WireMember.item.name]?[WireMember.stock.name]?.intValue {
                if stock < quantity {
                    ledger.observe(StressViolation(invariant: "stock", detail: "RestockMenuItem by \(quantity) answered stock \(stock)"))
                }
            } else {
                ledger.observe(StressViolation(invariant: "protocol", detail: "RestockMenuItem answered ok without the item's stock: \(Wording.plain(result?.parsed))"))
            }
        case .updateProfile(let name):
            if result?[WireMember.user.name]?[WireMember.name.name]?.stringValue != name {
                ledger.observe(StressViolation(invariant: "protocol", detail: "UpdateUserProfile to \(name) answered ok with \(Wording.plain(result?.parsed))"))
            }
        case .register(let email, let address):
            guard let userId = result?[WireMember.user.name]?[WireMember.id.name]?.stringValue else {
                ledger.observe(StressViolation(invariant: "protocol", detail: "RegisterUser answered ok without a user id: \(Wording.plain(result?.parsed))"))
                return
            }
            ledger.registrations[email, default: []].append(StressRegistration(userId: userId, email: address))
        }
    }

    private func noteFavoriteCount(_ result: JSONSkim?, in ledger: inout StressLedger) {
        guard let count = result?[WireMember.favoriteCount.name]?.intValue else { return }
        ledger.largestFavoriteCount = max(ledger.largestFavoriteCount, count)
        if count > 100 {
            ledger.observe(StressViolation(invariant: "favoritesCap", detail: "\(useCase) answered favoriteCount \(count) for \(Wording.plain(params[WireMember.userId.name]))"))
        }
    }

    /// Applies the expected refusal (see ``expectedRefusal``) to `ledger`.
    func recordRefusal(in ledger: inout StressLedger) {
        switch effect {
        case .saveFavorite(let user, _): ledger.capRefusals[user, default: 0] += 1
        case .order: ledger.stockRefusals += 1
        case .register(let email, _): ledger.conflicts[email, default: 0] += 1
        default: break
        }
    }

    /// Notes a write whose outcome is unknown (no answer, or an error whose `outcome` is `unknown`).
    func recordUnknown(in ledger: inout StressLedger) {
        switch effect {
        case .saveFavorite(let user, let restaurant): ledger.unknownFavorites[user, default: []].insert(restaurant)
        case .review(let restaurant): ledger.unknownReviews[restaurant, default: 0] += 1
        case .order: ledger.unknownOrders += 1
        case .restock(let item, let quantity): ledger.unknownRestocked[item, default: 0] += quantity
        case .register(let email, _): ledger.unknownRegistrations[email, default: 0] += 1
        case .read, .removeFavorite, .cancel, .updateProfile: break  // the store's order status tells what a cancel did; a name is not counted
        }
    }
}

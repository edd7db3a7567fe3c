import WireContract
import WireJSON

/// Checks the contract's invariants after a stress run, reading the store through the public
/// use cases and comparing with what the clients were told (the merged ``StressLedger``).
struct InvariantChecker {
    let caller: BatchCaller
    let fixture: StressFixture
    let ledger: StressLedger

    /// All checks, in report order.
    func run() throws(LoadFailure) -> [InvariantResult] {
        let ordersByUser = try caller.allPages(.listOrders, fixture.users.map { [WireMember.userId.name: .string($0)] }, listKey: WireMember.orders.name)
        var listedOrders: [JSONValue] = []
        var unreadable: [String] = []
        for (user, orders) in zip(fixture.users, ordersByUser) {
            switch orders {
            case .success(let orders): listedOrders += orders
            case .failure(let error): unreadable.append("the orders of user \(user) cannot be read: \(error)")
            }
        }
        var results = [
            try favoritesCap(),
            try stock(listedOrders: listedOrders, unreadable: unreadable),
            try uniqueEmails(),
            try rating(),
            try orderTotals(listedOrders: listedOrders),
        ]
        var replies = InvariantResult(name: "replies", rule: "every reply answers exactly one request, as [empty, body]")
        replies.checked = 1
        for violation in ledger.observedViolations {
            if let index = results.firstIndex(where: { $0.name == violation.invariant }) {
                results[index].fail("during the run: " + violation.detail)
            } else {
                replies.fail(violation.detail)
            }
        }
        // Counted beyond the first few kept in detail.
        let unlisted = ledger.observedViolationCount - ledger.observedViolations.count
        if unlisted > 0 { replies.violationCount += unlisted }
        results.append(replies)
        return results
    }

    /// The `result` of each call, or `nil` where the service answered an error, which counts as
    /// a violation of `invariant` (the row a check needs should be there).
    private func read(
        _ useCase: UseCaseName, _ paramsList: [JSONObject], for invariant: inout InvariantResult, what: (Int) -> String
    ) throws(LoadFailure) -> [JSONValue?] {
        var results: [JSONValue?] = []
        for (index, envelope) in try caller.callAll(useCase, paramsList).enumerated() {
            if envelope.replySucceeded, let result = envelope.replyResult {
                results.append(result)
            } else {
                invariant.fail("\(useCase) for \(what(index)) answered \(Wording.error(envelope))")
                results.append(nil)
            }
        }
        return results
    }

    private func favoritesCap() throws(LoadFailure) -> InvariantResult {
        var result = InvariantResult(
            name: "favoritesCap",
            rule: "at most 100 favourites per user; every acknowledged save kept; exactly 100 once the cap refused one")
        let lists = try read(.getFavoriteRestaurants, fixture.users.map { [WireMember.userId.name: .string($0)] }, for: &result) { "user \(fixture.users[$0])" }
        for (index, list) in lists.enumerated() {
            result.checked += 1
            let user = fixture.users[index]
            guard let list else { continue }
            let ids = (list[WireMember.restaurants.name]?.arrayValue ?? []).compactMap { $0[WireMember.id.name]?.stringValue }
            let distinct = Set(ids)
            if ids.count > 100 { result.fail("user \(user) has \(ids.count) favourites") }
            if distinct.count != ids.count { result.fail("user \(user) lists \(ids.count - distinct.count) favourites twice") }
            guard StressFixture.isSaveOnly(userIndex: index) else { continue }
            let saved = ledger.savedFavorites[index] ?? []
            let unknown = ledger.unknownFavorites[index] ?? []
            let missing = saved.subtracting(distinct)
            if !missing.isEmpty {
                result.fail("user \(user): \(missing.count) acknowledged saves are missing, e.g. \(missing.sorted().prefix(3).joined(separator: ", "))")
            }
            let unexplained = distinct.subtracting(saved).subtracting(unknown)
            if !unexplained.isEmpty {
                result.fail("user \(user): \(unexplained.count) favourites nobody saved, e.g. \(unexplained.sorted().prefix(3).joined(separator: ", "))")
            }
            if let refusals = ledger.capRefusals[index], refusals > 0, distinct.count != 100 {
                result.fail("user \(user): \(refusals) saves refused for the cap, yet \(distinct.count) favourites")
            }
        }
        if ledger.largestFavoriteCount > 100 {
            result.fail("a reply carried favoriteCount \(ledger.largestFavoriteCount)")
        }
        return result
    }

    private func stock(listedOrders: [JSONValue], unreadable: [String]) throws(LoadFailure) -> InvariantResult {
        var result = InvariantResult(
            name: "stock", rule: "stock never below 0, initial + restocked + returned = sold + left for every item, every acknowledged cancel kept")
        for problem in unreadable { result.fail(problem) }
        var left: [String: Int] = [:]
        let menus = try read(.getMenu, fixture.ownRestaurants.map { [WireMember.restaurantId.name: .string($0)] }, for: &result) { "restaurant \(fixture.ownRestaurants[$0])" }
        for menu in menus {
            for item in menu?[WireMember.items.name]?.arrayValue ?? [] {
                if let id = item[WireMember.id.name]?.stringValue, let stock = item[WireMember.stock.name]?.intValue { left[id] = stock }
            }
        }
        // Sold: the lines of every order placed; returned: those of every order cancelled.
        var sold: [String: Int] = [:], returned: [String: Int] = [:]
        for order in listedOrders {
            let cancelled = order[WireMember.status.name]?.stringValue == "cancelled"
            for line in order[WireMember.items.name]?.arrayValue ?? [] {
                guard let id = line[WireMember.itemId.name]?.stringValue, let quantity = line[WireMember.quantity.name]?.intValue else { continue }
                sold[id, default: 0] += quantity
                if cancelled { returned[id, default: 0] += quantity }
            }
        }
        for (index, item) in fixture.items.enumerated() {
            result.checked += 1
            guard let remaining = left[item.id] else {
                result.fail("item \(item.id) is missing from its menu")
                continue
            }
            if remaining < 0 { result.fail("item \(item.id) has stock \(remaining)") }
            let restocked = ledger.restocked[index] ?? 0
            let unknown = ledger.unknownRestocked[index] ?? 0
            let accounted = (sold[item.id] ?? 0) + remaining
            let back = returned[item.id] ?? 0
            let lower = item.initialStock + restocked + back
            if accounted < lower || accounted > lower + unknown {
                let range = unknown == 0 ? "\(lower)" : "\(lower)…\(lower + unknown)"
                result.fail(
                    "item \(item.id): initial \(item.initialStock) + restocked \(restocked) (+\(unknown) unknown) + returned \(back) = \(range), "
                        + "but sold \(sold[item.id] ?? 0) + left \(remaining) = \(accounted)")
            }
        }
        let listedIds = Set(listedOrders.compactMap { $0[WireMember.id.name]?.stringValue })
        let listedCancelled = Set(listedOrders.filter { $0[WireMember.status.name]?.stringValue == "cancelled" }.compactMap { $0[WireMember.id.name]?.stringValue })
        let uncancelled = ledger.cancelledOrders.subtracting(listedCancelled).intersection(listedIds)
        if !uncancelled.isEmpty {
            result.fail("\(uncancelled.count) acknowledged cancellations are not cancelled in ListOrders, e.g. \(uncancelled.sorted().prefix(3).joined(separator: ", "))")
        }
        let lost = ledger.orders.keys.filter { !listedIds.contains($0) }
        if !lost.isEmpty {
            result.fail("\(lost.count) acknowledged orders are missing from ListOrders, e.g. \(lost.sorted().prefix(3).joined(separator: ", "))")
        }
        let unexplained = listedIds.count - (ledger.orders.count - lost.count)
        if unexplained > ledger.unknownOrders {
            result.fail("\(unexplained) orders in the store were never acknowledged (only \(ledger.unknownOrders) had an unknown outcome)")
        }
        return result
    }

    private func uniqueEmails() throws(LoadFailure) -> InvariantResult {
        var result = InvariantResult(
            name: "uniqueEmails", rule: "each contested email registered exactly once, whatever its letter case")
        var probes: [JSONObject] = []
        var probed: [Int] = []
        var holders: [(email: Int, userId: String)] = []
        for (index, email) in fixture.contestedEmails.enumerated() {
            let registrations = ledger.registrations[index] ?? []
            let conflicts = ledger.conflicts[index] ?? 0
            let unknown = ledger.unknownRegistrations[index] ?? 0
            guard !registrations.isEmpty || conflicts > 0 || unknown > 0 else { continue }
            result.checked += 1
            if registrations.count > 1 {
                result.fail("\(email) was registered \(registrations.count) times: \(registrations.map(\.email).joined(separator: ", "))")
            }
            if registrations.isEmpty, conflicts > 0, unknown == 0 {
                result.fail("\(email) was refused as taken \(conflicts) times, but no registration of it succeeded")
            }
            for registration in registrations { holders.append((index, registration.userId)) }
            // Only an acknowledged holder makes the address certainly taken (an attempt without
            // an answer may never have reached the store).
            if !registrations.isEmpty {
                probes.append([WireMember.name.name: "Late Contender", WireMember.email.name: .string(email.uppercased())])
                probed.append(index)
            }
        }
        let profiles = try read(.getUserProfile, holders.map { [WireMember.userId.name: .string($0.userId)] }, for: &result) { "user \(holders[$0].userId)" }
        for (holder, profile) in zip(holders, profiles) {
            guard let profile else { continue }
            let expected = fixture.contestedEmails[holder.email]
            let email = (profile[WireMember.profile.name] ?? profile)[WireMember.email.name]
            if email?.stringValue?.lowercased() != expected {
                result.fail("user \(holder.userId) registered as \(expected) has email \(Wording.plain(email))")
            }
        }
        // Once an address is taken, registering it again in another case must be refused.
        for (index, reply) in zip(probed, try caller.callAll(.registerUser, probes, keys: caller.freshKeys(probes.count))) {
            let code = reply.replyErrorCode
            if reply.replySucceeded {
                result.fail("\(fixture.contestedEmails[index]) in upper case was registered again after the run")
            } else if code != WireErrorCode.conflict.rawValue {
                result.fail("registering \(fixture.contestedEmails[index]) again answered \(Wording.error(reply)), not conflict")
            }
        }
        return result
    }

    private func rating() throws(LoadFailure) -> InvariantResult {
        var result = InvariantResult(
            name: "rating", rule: "rating = mean of the restaurant's reviews and reviewCount = their number; no review lost")
        let touched = Set(ledger.reviews.keys).union(ledger.unknownReviews.keys).sorted()
        let restaurants = try read(.getRestaurant, touched.map { [WireMember.restaurantId.name: .string($0)] }, for: &result) { "restaurant \(touched[$0])" }
        let reviews = try caller.allPages(.getReviews, touched.map { [WireMember.restaurantId.name: .string($0)] }, listKey: WireMember.reviews.name)
        for (index, id) in touched.enumerated() {
            result.checked += 1
            guard let found = restaurants[index] else { continue }
            let restaurant = found[WireMember.restaurant.name] ?? found
            let list: [JSONValue]
            switch reviews[index] {
            case .success(let reviews): list = reviews
            case .failure(let error):
                result.fail("the reviews of restaurant \(id) cannot be read: \(error)")
                continue
            }
            let ratings = list.compactMap { $0[WireMember.rating.name]?.intValue }
            let count = restaurant[WireMember.reviewCount.name]?.intValue ?? -1
            let rating = restaurant[WireMember.rating.name]?.doubleValue ?? -1
            if count != ratings.count {
                result.fail("restaurant \(id): reviewCount \(count) but GetReviews lists \(ratings.count)")
            }
            let mean = ratings.isEmpty ? 0 : Double(ratings.reduce(0, +)) / Double(ratings.count)
            if abs(mean - rating) > 1e-9 * max(1, mean) {
                result.fail("restaurant \(id): rating \(rating) but the mean of its \(ratings.count) reviews is \(mean)")
            }
            let acknowledged = ledger.reviews[id] ?? 0
            let unknown = ledger.unknownReviews[id] ?? 0
            let added = count - (fixture.reviewCountsBefore[id] ?? 0)
            if added < acknowledged {
                result.fail("restaurant \(id): \(acknowledged) reviews acknowledged but only \(added) added")
            } else if fixture.createdRestaurants.contains(id), added > acknowledged + unknown {
                result.fail("restaurant \(id): \(added) reviews added but only \(acknowledged) acknowledged (+\(unknown) unknown)")
            }
        }
        return result
    }

    private func orderTotals(listedOrders: [JSONValue]) throws(LoadFailure) -> InvariantResult {
        var result = InvariantResult(
            name: "orderTotals",
            rule: "subtotal = Σ quantity × unit price, tax = (subtotal − discount) × rate rounded half-even, total = subtotal − discount + tax")
        let prices = Dictionary(uniqueKeysWithValues: fixture.items.map { ($0.id, $0.priceCents) })
        for order in listedOrders {
            result.checked += 1
            for problem in OrderArithmetic.problems(in: order, prices: prices, taxPartsPerMillion: fixture.taxPartsPerMillion, currency: StressFixture.currency) {
                result.fail("order \(Wording.plain(order[WireMember.id.name])): \(problem)")
            }
        }
        // What each client was told must be what is stored.
        let stored = Dictionary(listedOrders.compactMap { order in order[WireMember.id.name]?.stringValue.map { ($0, order) } }) { first, _ in first }
        for (id, acknowledged) in ledger.orders {
            guard let listed = stored[id] else { continue }  // reported by the stock check
            result.checked += 1
            if !OrderArithmetic.sameOrder(acknowledged, listed) {
                result.fail("order \(id): PlaceOrder answered \(String(decoding: acknowledged, as: UTF8.self)) but ListOrders has \(listed)")
            }
        }
        let sample = Array(ledger.orders.keys.sorted().prefix(200))
        let readBack = try read(.getOrder, sample.map { [WireMember.orderId.name: .string($0)] }, for: &result) { "order \(sample[$0])" }
        for (id, reply) in zip(sample, readBack) {
            result.checked += 1
            guard let reply else { continue }
            if let acknowledged = ledger.orders[id], !OrderArithmetic.sameOrder(acknowledged, reply[WireMember.order.name] ?? .null) {
                result.fail("order \(id): PlaceOrder answered \(String(decoding: acknowledged, as: UTF8.self)) but GetOrder has \(reply)")
            }
        }
        return result
    }
}

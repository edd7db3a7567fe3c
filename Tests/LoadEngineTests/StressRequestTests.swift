import Testing
import WireContract
import WireJSON
@testable import LoadEngine

/// What a stress request's successful reply does to the ledger: the rules each result is checked
/// against, read from the reply's bytes without a tree.
@Suite("Checking stress replies")
struct StressRequestTests {
    /// A request to `useCase` with `effect` and params `{"userId":"u-1","restaurantId":"r-1"}`.
    static func request(_ useCase: UseCaseName, _ effect: StressRequest.Effect) -> StressRequest {
        var params = StressParams()
        params.add(WireMember.userId, "u-1")
        params.add(WireMember.restaurantId, "r-1")
        return params.request(useCase, effect: effect)
    }

    /// The ledger after `request` succeeded with `result` (JSON text).
    static func ledger(after request: StressRequest, result: String) -> StressLedger {
        var ledger = StressLedger()
        Array(result.utf8).withUnsafeBytes { request.recordSuccess(JSONSkim(document: $0), in: &ledger) }
        return ledger
    }

    static func invariants(_ ledger: StressLedger) -> [String] { ledger.observedViolations.map(\.invariant) }

    @Test func paramsAreTheJSONSentAndReadBackAsAnObject() throws {
        let request = Self.request(.getRestaurant, .read(.restaurant))
        #expect(String(decoding: request.paramsJSON, as: UTF8.self) == #"{"userId":"u-1","restaurantId":"r-1"}"#)
        #expect(request.params[WireMember.restaurantId.name] == "r-1")
        #expect(StressRequest.useCaseOrder[request.useCaseIndex] == .getRestaurant)
    }

    @Test func readsBreakingTheirRulesAreViolations() {
        let menu = Self.request(.getMenu, .read(.menu))
        #expect(Self.invariants(Self.ledger(after: menu, result: #"{"items":[{"id":"m-1","stock":3},{"id":"m-2","stock":0}]}"#)).isEmpty)
        let negative = Self.ledger(after: menu, result: #"{"items":[{"id":"m-1","stock":3},{"id":"m-2","stock":-1}]}"#)
        #expect(Self.invariants(negative) == ["stock"])
        #expect(negative.observedViolations.first?.detail.contains("m-2") == true)

        let restaurant = Self.request(.getRestaurant, .read(.restaurant))
        #expect(Self.invariants(Self.ledger(after: restaurant, result: #"{"restaurant":{"id":"r-1","rating":4.5}}"#)).isEmpty)
        #expect(Self.invariants(Self.ledger(after: restaurant, result: #"{"restaurant":{"id":"r-1","rating":5.25}}"#)) == ["rating"])

        let favorites = Self.request(.getFavoriteRestaurants, .read(.favorites))
        let hundred = "[" + Array(repeating: #"{"id":"r"}"#, count: 100).joined(separator: ",") + "]"
        let hundredAndOne = "[" + Array(repeating: #"{"id":"r"}"#, count: 101).joined(separator: ",") + "]"
        #expect(Self.invariants(Self.ledger(after: favorites, result: #"{"restaurants":\#(hundred)}"#)).isEmpty)
        #expect(Self.invariants(Self.ledger(after: favorites, result: #"{"restaurants":\#(hundredAndOne)}"#)) == ["favoritesCap"])
    }

    @Test func writesFillTheLedgerAndBreakingRulesAreViolations() throws {
        let order = Self.request(.placeOrder, .order(userId: "u-1"))
        let placed = Self.ledger(after: order, result: #"{"order":{"id":"o-9","totalCents":1200,"items":[{"itemId":"m-1","quantity":2}]}}"#)
        #expect(Self.invariants(placed).isEmpty)
        #expect(placed.orders["o-9"].map { String(decoding: $0, as: UTF8.self) } == #"{"id":"o-9","totalCents":1200,"items":[{"itemId":"m-1","quantity":2}]}"#)
        #expect(Self.invariants(Self.ledger(after: order, result: #"{"order":{"totalCents":1200}}"#)) == ["orderTotals"])

        let save = Self.request(.saveFavoriteRestaurant, .saveFavorite(user: 3, restaurant: "r-1"))
        let saved = Self.ledger(after: save, result: #"{"favoriteCount":7}"#)
        #expect(saved.savedFavorites[3] == ["r-1"])
        #expect(saved.largestFavoriteCount == 7)
        #expect(Self.invariants(Self.ledger(after: save, result: #"{"favoriteCount":101}"#)) == ["favoritesCap"])

        let review = Self.request(.addReview, .review(restaurant: "r-1"))
        #expect(Self.ledger(after: review, result: #"{"restaurantRating":3.5}"#).reviews["r-1"] == 1)
        #expect(Self.invariants(Self.ledger(after: review, result: #"{"restaurantRating":0.5}"#)) == ["rating"])

        let restock = Self.request(.restockMenuItem, .restock(item: 2, quantity: 5))
        #expect(Self.ledger(after: restock, result: #"{"item":{"id":"m-2","stock":9}}"#).restocked[2] == 5)
        #expect(Self.invariants(Self.ledger(after: restock, result: #"{"item":{"id":"m-2","stock":4}}"#)) == ["stock"])
        #expect(Self.invariants(Self.ledger(after: restock, result: #"{"item":{"id":"m-2"}}"#)) == ["protocol"])

        let cancel = Self.request(.cancelOrder, .cancel(orderId: "o-9"))
        #expect(Self.invariants(Self.ledger(after: cancel, result: #"{"order":{"id":"o-9","status":"cancelled"}}"#)).isEmpty)
        #expect(Self.invariants(Self.ledger(after: cancel, result: #"{"order":{"id":"o-9","status":"pending"}}"#)) == ["stock"])

        let update = Self.request(.updateUserProfile, .updateProfile(name: "Ada"))
        #expect(Self.invariants(Self.ledger(after: update, result: #"{"user":{"id":"u-1","name":"Ada"}}"#)).isEmpty)
        #expect(Self.invariants(Self.ledger(after: update, result: #"{"user":{"id":"u-1","name":"Bob"}}"#)) == ["protocol"])

        let register = Self.request(.registerUser, .register(email: 1, address: "A@x.org"))
        #expect(Self.ledger(after: register, result: #"{"user":{"id":"u-7"}}"#).registrations[1]?.map(\.userId) == ["u-7"])
        #expect(Self.invariants(Self.ledger(after: register, result: #"{"user":{}}"#)) == ["protocol"])
    }
}

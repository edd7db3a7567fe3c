import Foundation
import WireContract
import WireJSON

/// Requests every use case answers `ok` on svcd's seeded sample data (`--seed-sample`), whatever
/// else ran against it first, each on rows of its own: what the fuzzing and garbage tests send
/// afterwards to see every endpoint still serving.
public enum SampleRequests {
    /// An order and the user who placed it.
    public struct PlacedOrder: Sendable {
        /// The order's id.
        public let orderId: String
        /// Its user's id.
        public let userId: String

        /// The pair.
        public init(orderId: String, userId: String) {
            self.orderId = orderId
            self.userId = userId
        }
    }

    /// Valid params of `useCase`; CancelOrder's cancel `cancellable` (ok again once it is
    /// cancelled). An exhaustive switch: a new use case does not compile without its params.
    public static func params(_ useCase: UseCaseName, tag: String, cancellable: PlacedOrder) -> JSONValue {
        switch useCase {
        case .registerUser: ["name": .string("After \(tag)"), "email": .string(uniqueEmail("after-\(tag)"))]
        case .getUserProfile: ["userId": "u-000001"]
        case .updateUserProfile: ["userId": "u-000002", "name": .string("After \(tag)")]
        case .deactivateUser: ["userId": "u-000003"]
        case .startSubscription: ["userId": "u-000004", "months": 1]
        case .createRestaurant: ["name": "After Grill", "cuisine": "Grill", "priceLevel": 2, "address": "9 After St", "latitude": 40.1, "longitude": -74.2]
        case .getRestaurant: ["restaurantId": "r-000001"]
        case .listRestaurants: ["limit": 5]
        case .searchRestaurants: ["query": "Italian"]
        case .saveFavoriteRestaurant: ["userId": "u-000005", "restaurantId": "r-000002"]
        case .removeFavoriteRestaurant: ["userId": "u-000005", "restaurantId": "r-000003"]
        case .getFavoriteRestaurants: ["userId": "u-000006"]
        case .addReview: ["userId": "u-000007", "restaurantId": "r-000004", "rating": 5, "text": "Still serving."]
        case .getReviews: ["restaurantId": "r-000001"]
        case .calculateRestaurantScore: ["restaurantId": "r-000001"]
        case .addMenuItem: ["restaurantId": "r-000005", "name": "After Tea", "priceCents": 450, "currency": "USD", "stock": 3]
        case .restockMenuItem: ["itemId": "m-000002", "quantity": 1]
        case .getMenu: ["restaurantId": "r-000001"]
        case .placeOrder: ["userId": "u-000008", "items": [["itemId": "m-000001", "quantity": 2]], "deliveryAddress": "9 After St"]
        case .getOrder: ["orderId": "o-000001"]
        case .listOrders: ["userId": "u-000001"]
        case .loadFeed: ["limit": 3]
        case .cancelOrder: ["orderId": .string(cancellable.orderId), "userId": .string(cancellable.userId)]
        }
    }

    /// Places an order now (the sample orders are past CancelOrder's 30 minutes) by a user no
    /// other sample request refers to, through `placeOrderAddress`.
    public static func placeCancellableOrder(placeOrderAddress address: String, curve: CurveClient? = nil) async throws -> PlacedOrder {
        let userId = "u-000009"
        let reply = try await call(
            address, request(id: "cancellable", params: ["userId": .string(userId), "items": [["itemId": "m-000001", "quantity": 2]], "deliveryAddress": "9 After St"]),
            curve: curve
        )
        guard let orderId = reply.result?["order"]?["id"]?.stringValue else {
            throw SampleRequestFailure("PlaceOrder answered \(reply)")
        }
        return PlacedOrder(orderId: orderId, userId: userId)
    }
}

/// A sample request was not answered as the sample data says.
public struct SampleRequestFailure: Error, CustomStringConvertible {
    /// What happened.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

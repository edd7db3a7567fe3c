import Foundation
import WireContract

/// What the PlaceOrder runs order: one user and one menu item per slot, made through the
/// service's own use cases, so no two requests in flight wait for each other's row lock. Each
/// item costs 12.50 USD (an order is at least 1,000 minor units) and has a stock of
/// 1,000,000,000, which the runs cannot use up.
struct OrderFixtures: Sendable {
    /// PlaceOrder's `params` text for each slot.
    let orderParams: [String]

    /// Registers `count` users and adds `count` menu items (to the sample restaurants) through
    /// `instance`.
    static func make(through instance: SvcdInstance, count: Int) async throws -> OrderFixtures {
        let register = try instance.address(.registerUser)
        let addItem = try instance.address(.addMenuItem)
        return try await onThread {
            let users = try LockstepCaller(address: register).call((0..<count).map { #"{"name":"Order User \#($0)","email":"order-user-\#($0)@example.com"}"# })
                .map { result in
                    guard let id = result["user"]?["id"]?.stringValue else { throw BenchFailure("RegisterUser answered no user id") }
                    return id
                }
            let items = try LockstepCaller(address: addItem).call((0..<count).map {
                String(format: #"{"restaurantId":"r-%06d","name":"Bench Dish %d","priceCents":1250,"currency":"USD","stock":1000000000}"#, 1 + $0 % 300, $0)
            }).map { result in
                guard let id = result["item"]?["id"]?.stringValue else { throw BenchFailure("AddMenuItem answered no item id") }
                return id
            }
            return OrderFixtures(orderParams: zip(users, items).map { user, item in
                #"{"userId":"\#(user)","items":[{"itemId":"\#(item)","quantity":1}],"deliveryAddress":"1 Bench St, Springfield"}"#
            })
        }
    }
}

import Foundation
import LoadEngine
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
            let users = try LockstepCaller.setUp(register, (0..<count).map { #"{"\#(WireMember.name.name)":"Order User \#($0)","\#(WireMember.email.name)":"order-user-\#($0)@example.com"}"# })
                .map { result in
                    guard let id = result[WireMember.user.name]?[WireMember.id.name]?.stringValue else { throw BenchFailure("RegisterUser answered no user id") }
                    return id
                }
            let items = try LockstepCaller.setUp(addItem, (0..<count).map {
                String(format: #"{"\#(WireMember.restaurantId.name)":"r-%06d","\#(WireMember.name.name)":"Bench Dish %d","\#(WireMember.priceCents.name)":1250,"\#(WireMember.currency.name)":"USD","\#(WireMember.stock.name)":1000000000}"#, 1 + $0 % 300, $0)
            }).map { result in
                guard let id = result[WireMember.item.name]?[WireMember.id.name]?.stringValue else { throw BenchFailure("AddMenuItem answered no item id") }
                return id
            }
            return OrderFixtures(orderParams: zip(users, items).map { user, item in
                #"{"\#(WireMember.userId.name)":"\#(user)","\#(WireMember.items.name)":[{"\#(WireMember.itemId.name)":"\#(item)","\#(WireMember.quantity.name)":1}],"\#(WireMember.deliveryAddress.name)":"1 Bench St, Springfield"}"#
            })
        }
    }
}

import WireContract
import WireJSON

/// What the benchmarks' PlaceOrder runs order: one user and one menu item per slot, made through
/// the service's own use cases, so no two requests in flight wait for each other's row lock.
/// Each item costs 12.50 USD (an order is at least 1,000 minor units) and has a stock of
/// 1,000,000,000, which no run uses up.
public struct OrderFixtures: Sendable {
    /// PlaceOrder's `params` text for each slot.
    public let orderParams: [String]

    /// Registers `count` users through svcd's RegisterUser at `register` and adds `count` menu
    /// items (to the sample restaurants) through its AddMenuItem at `addItem`. The users'
    /// e-mails carry `tag`, which must differ between fixtures made in one store. Blocking: run
    /// it on a dedicated thread.
    public static func make(register: String, addItem: String, count: Int, tag: String) throws(LoadFailure) -> OrderFixtures {
        let users = try LockstepCaller.setUp(register, (0..<count).map {
            #"{"\#(WireMember.name.name)":"Order User \#($0)","\#(WireMember.email.name)":"order-user-\#(tag)-\#($0)@example.com"}"#
        }).map { result throws(LoadFailure) in
            guard let id = result[WireMember.user.name]?[WireMember.id.name]?.stringValue else { throw LoadFailure(.serviceError, "RegisterUser answered no user id") }
            return id
        }
        let items = try LockstepCaller.setUp(addItem, (0..<count).map {
            let restaurant = String(1 + $0 % 300)
            return #"{"\#(WireMember.restaurantId.name)":"r-\#(String(repeating: "0", count: 6 - restaurant.count) + restaurant)","\#(WireMember.name.name)":"Bench Dish \#(tag) \#($0)","\#(WireMember.priceCents.name)":1250,"\#(WireMember.currency.name)":"USD","\#(WireMember.stock.name)":1000000000}"#
        }).map { result throws(LoadFailure) in
            guard let id = result[WireMember.item.name]?[WireMember.id.name]?.stringValue else { throw LoadFailure(.serviceError, "AddMenuItem answered no item id") }
            return id
        }
        return OrderFixtures(orderParams: zip(users, items).map { user, item in
            #"{"\#(WireMember.userId.name)":"\#(user)","\#(WireMember.items.name)":[{"\#(WireMember.itemId.name)":"\#(item)","\#(WireMember.quantity.name)":1}],"\#(WireMember.deliveryAddress.name)":"1 Bench St, Springfield"}"#
        })
    }
}

import BenchmarkSupport
import LoadEngine
import WireContract
import WireJSON
import ZeroMQ

/// What `--use-case PlaceOrder` orders: one item of a menu item added for the run (12.50 USD, a
/// stock of 1,000,000,000 that no run uses up) by a user registered for it, both made through
/// the service's own use cases, so the counted requests find the same rows whatever the store
/// held before.
enum OrderFixture {
    /// Registers the user and adds the item through the service at `addresses` (the user's
    /// e-mail carries `tag`, which must differ between runs against the same store) and returns
    /// PlaceOrder's params text.
    static func make(addresses: [UseCaseName: String], tag: String) async throws -> String {
        guard let register = addresses[.registerUser], let addItem = addresses[.addMenuItem] else {
            throw BenchError("the service has no RegisterUser or AddMenuItem endpoint")
        }
        return try await DedicatedThread.run(named: "svcbench-setup") {
            let user = try call(register, #"{"\#(WireMember.name.name)":"Order User","\#(WireMember.email.name)":"order-\#(tag)@bench.example"}"#)
            let item = try call(
                addItem,
                #"{"\#(WireMember.restaurantId.name)":"r-000001","\#(WireMember.name.name)":"Bench Dish \#(tag)","\#(WireMember.priceCents.name)":1250,"\#(WireMember.currency.name)":"USD","\#(WireMember.stock.name)":1000000000}"#)
            guard let userId = user[WireMember.user.name]?[WireMember.id.name]?.stringValue,
                let itemId = item[WireMember.item.name]?[WireMember.id.name]?.stringValue
            else {
                throw BenchError("RegisterUser or AddMenuItem answered without an id: \(user), \(item)")
            }
            return #"{"\#(WireMember.userId.name)":"\#(userId)","\#(WireMember.items.name)":[{"\#(WireMember.itemId.name)":"\#(itemId)","\#(WireMember.quantity.name)":1}],"\#(WireMember.deliveryAddress.name)":"1 Bench St, Springfield"}"#
        }
    }

    /// One call, answered `ok` within 30 s, or the set-up fails; returns its `result`.
    private static func call(_ address: String, _ params: String) throws -> JSONValue {
        let caller = try LockstepCaller(address: address, timeoutMilliseconds: 30_000)
        defer { caller.close() }
        guard let body = try caller.call(WireEnvelope.requestBytes(id: "setup", paramsJSON: params))?.last else {
            throw BenchError("no reply from \(address) within 30 s")
        }
        let reply = try JSONParser.parse(body)
        guard reply.replySucceeded, let result = reply.replyResult else {
            throw BenchError("set-up call to \(address) with \(params) failed: \(String(decoding: body, as: UTF8.self))")
        }
        return result
    }
}

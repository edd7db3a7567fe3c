import Foundation
import Testing
import WireContract
import WireJSON
import WireTestSupport

extension SvcdCluster {
    /// One request to `useCase` on instance `instance` over a fresh REQ socket, with `key` as
    /// its idempotency key if given; fails when no reply comes within `timeout` ms.
    public func send(
        _ useCase: UseCaseName, on instance: Int, _ params: JSONValue, idempotencyKey key: String? = nil, id: String = "t",
        timeout: Int32 = 20_000
    ) async throws -> Reply {
        let body = request(id: id, params: params, extra: key.map { [("idempotencyKey", .string($0))] } ?? [])
        return try await call(try address(useCase, on: instance), body, receiveTimeout: timeout)
    }

    /// A request that must succeed; returns its `result`.
    @discardableResult
    public func succeed(
        _ useCase: UseCaseName, on instance: Int, _ params: JSONValue, idempotencyKey key: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let reply = try await send(useCase, on: instance, params, idempotencyKey: key)
        try #require(reply.ok == true, "\(useCase) on instance \(instance): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.result, "no result in \(reply)", sourceLocation: sourceLocation)
    }

    /// Registers a user with a unique e-mail address on `instance`; returns its id.
    public func newUser(on instance: Int = 0, _ tag: String) async throws -> String {
        let result = try await succeed(.registerUser, on: instance, ["name": .string("User \(tag)"), "email": .string(uniqueEmail(tag))])
        return try #require(result["user"]?["id"]?.stringValue)
    }

    /// Creates a valid restaurant on `instance`; returns its id.
    public func newRestaurant(on instance: Int = 0, _ name: String) async throws -> String {
        let result = try await succeed(.createRestaurant, on: instance, [
            "name": .string(name), "cuisine": "Cluster", "priceLevel": 2, "address": "1 Cluster Way", "latitude": 10.5, "longitude": 20.5,
        ])
        return try #require(result["restaurant"]?["id"]?.stringValue)
    }

    /// Adds an item priced `priceCents` USD with `stock` to `restaurant`'s menu on `instance`;
    /// returns its id.
    public func newItem(on instance: Int = 0, in restaurant: String, stock: Int, priceCents: Int = 1500) async throws -> String {
        let result = try await succeed(.addMenuItem, on: instance, [
            "restaurantId": .string(restaurant), "name": .string("Dish \(UUID().uuidString.prefix(6))"), "priceCents": .int(priceCents),
            "currency": "USD", "stock": .int(stock),
        ])
        return try #require(result["item"]?["id"]?.stringValue)
    }

    /// `item`'s stock as GetMenu of `restaurant` on `instance` shows it.
    public func stock(of item: String, in restaurant: String, on instance: Int = 0) async throws -> Int {
        let menu = try await succeed(.getMenu, on: instance, ["restaurantId": .string(restaurant)])
        let entry = try #require(menu["items"]?.arrayValue?.first { $0["id"]?.stringValue == item }, "item \(item) is not on the menu")
        return try #require(entry["stock"]?.intValue)
    }

    /// Admin `status` of instance `instance`, through `svcctl status --json`.
    public func status(of instance: Int) async throws -> JSONValue {
        let outcome = try await runTool(try ExecutableLocator.svcctl(), ["status", "--data-dir", dataDirectory(instance), "--json"], timeout: 30)
        try #require(outcome.status == 0, "svcctl status of instance \(instance) exited \(String(describing: outcome.status)): \(outcome.stderr)")
        return try JSONParser.parse(Array(outcome.stdout.utf8))
    }
}

/// Every page of a listing of `useCase` on `instance`, following `nextCursor`; `field` names
/// the array in each page.
public func allPages(_ cluster: SvcdCluster, _ useCase: UseCaseName, on instance: Int, _ params: [(String, JSONValue)], field: String) async throws -> [JSONValue] {
    var rows: [JSONValue] = []
    var cursor: String?
    repeat {
        var members = params
        members.append(("limit", 500))
        if let cursor { members.append(("cursor", .string(cursor))) }
        let page = try await cluster.succeed(useCase, on: instance, .object(JSONObject(members)))
        rows += page[field]?.arrayValue ?? []
        cursor = page["nextCursor"]?.stringValue
    } while cursor != nil
    return rows
}

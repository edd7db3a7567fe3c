import Testing
import Transport
import WireContract
import WireJSON
import WireTestSupport

/// One message sent on a DEALER and what the reply must be.
struct EnvelopeCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// `ok: false` with this code; `id` as given (`.null` when it must be null); the message
        /// must contain `naming` when given.
        case refused(String, id: JSONValue, naming: String? = nil)
        /// `ok: true` with this id; `check` (if any) must hold for the result.
        case accepted(id: JSONValue, check: (@Sendable (JSONValue) -> Bool)? = nil)
    }

    let label: String
    let useCase: UseCaseName
    /// The frames the DEALER sends (normally `["", body]`).
    let frames: [[UInt8]]
    let outcome: Outcome

    var testDescription: String { label }

    init(_ label: String, _ useCase: UseCaseName, body: [UInt8], _ outcome: Outcome) {
        self.init(label, useCase, frames: [[], body], outcome)
    }

    init(_ label: String, _ useCase: UseCaseName, body text: String, _ outcome: Outcome) {
        self.init(label, useCase, frames: [[], Array(text.utf8)], outcome)
    }

    init(_ label: String, _ useCase: UseCaseName, frames: [[UInt8]], _ outcome: Outcome) {
        self.label = label
        self.useCase = useCase
        self.frames = frames
        self.outcome = outcome
    }
}

private func restaurantIs(_ id: String) -> @Sendable (JSONValue) -> Bool {
    { $0["restaurant"]?["id"]?.stringValue == id }
}

private let feedPage: @Sendable (JSONValue) -> Bool = { $0["items"]?.arrayValue != nil && $0.objectValue?.contains(key: "nextCursor") == true }

private let get1: JSONValue = ["restaurantId": "r-000001"]

/// The malformed, version, id, params and deadline rules of the request envelope, plus the wire
/// typing of params (`invalid_input` naming the field).
let envelopeCases: [EnvelopeCase] = [
    // Not JSON / not an object.
    .init("not JSON: {\"v\":1", .getRestaurant, body: #"{"v":1"#, .refused("malformed", id: .null)),
    .init("array body [1,2]", .getRestaurant, body: "[1,2]", .refused("malformed", id: .null)),
    .init("string body", .getRestaurant, body: #""str""#, .refused("malformed", id: .null)),
    .init("number body 42", .getRestaurant, body: "42", .refused("malformed", id: .null)),
    .init("null body", .getRestaurant, body: "null", .refused("malformed", id: .null)),
    .init("trailing garbage after the object", .getRestaurant, body: #"{"v":1,"id":"t"} x"#, .refused("malformed", id: .null)),
    // v.
    .init("missing v", .getRestaurant, body: request(id: "nov", params: get1).dropV(), .refused("malformed", id: "nov")),
    .init("v as string \"1\"", .getRestaurant, body: #"{"v":"1","id":"vs","params":{"restaurantId":"r-000001"}}"#, .refused("malformed", id: "vs")),
    .init("v null", .getRestaurant, body: #"{"v":null,"id":"vn"}"#, .refused("malformed", id: "vn")),
    .init("v true", .getRestaurant, body: #"{"v":true,"id":"vb"}"#, .refused("malformed", id: "vb")),
    .init("v 2", .getRestaurant, body: #"{"v":2,"id":"v2","params":{"restaurantId":"r-000001"}}"#, .refused("unsupported_version", id: "v2")),
    .init("v 0", .getRestaurant, body: #"{"v":0,"id":"v0"}"#, .refused("unsupported_version", id: "v0")),
    .init("v 1.5", .getRestaurant, body: #"{"v":1.5,"id":"v15"}"#, .refused("unsupported_version", id: "v15")),
    .init("v 1.0 is accepted", .getRestaurant, body: #"{"v":1.0,"id":"v10","params":{"restaurantId":"r-000001"}}"#, .accepted(id: "v10", check: restaurantIs("r-000001"))),
    .init("v 1e0 is accepted", .getRestaurant, body: #"{"v":1e0,"id":"v1e0","params":{"restaurantId":"r-000001"}}"#, .accepted(id: "v1e0", check: restaurantIs("r-000001"))),
    // params.
    .init("params []", .getRestaurant, body: #"{"v":1,"id":"pa","params":[]}"#, .refused("malformed", id: "pa")),
    .init("params \"x\"", .getRestaurant, body: #"{"v":1,"id":"ps","params":"x"}"#, .refused("malformed", id: "ps")),
    .init("params 3", .getRestaurant, body: #"{"v":1,"id":"pn","params":3}"#, .refused("malformed", id: "pn")),
    .init("params missing means {} (LoadFeed succeeds)", .loadFeed, body: request(id: "pm"), .accepted(id: "pm", check: feedPage)),
    .init("params null means {} (LoadFeed succeeds)", .loadFeed, body: #"{"v":1,"id":"pnull","params":null}"#, .accepted(id: "pnull", check: feedPage)),
    .init("params missing means {} (RegisterUser names name)", .registerUser, body: request(id: "pmr"), .refused("invalid_input", id: "pmr", naming: "name")),
    // Frames.
    .init("empty body frame", .getRestaurant, frames: [[], []], .refused("malformed", id: .null)),
    .init("two body frames after the delimiter", .getRestaurant, frames: [[], request(id: "two", params: get1), request(id: "two", params: get1)], .refused("malformed", id: .null)),
    .init("delimiter without body", .getRestaurant, frames: [[]], .refused("malformed", id: .null)),
    .init("DEALER message without the empty delimiter", .getRestaurant, frames: [request(id: "nodelim", params: get1)], .refused("malformed", id: .null)),
    .init("invalid UTF-8 in the id", .getRestaurant, body: Array(#"{"v":1,"id":""#.utf8) + [0xFF] + Array(#""}"#.utf8), .refused("malformed", id: .null)),
    .init("invalid UTF-8 in a param", .getRestaurant, body: Array(#"{"v":1,"params":{"restaurantId":"r-"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8), .refused("malformed", id: .null)),
    .init("unpaired surrogate escape", .getRestaurant, body: #"{"v":1,"id":"\uD800"}"#, .refused("malformed", id: .null)),
    // id.
    .init("id as number", .getRestaurant, body: #"{"v":1,"id":7,"params":{"restaurantId":"r-000001"}}"#, .refused("malformed", id: .null)),
    .init("id as object", .getRestaurant, body: #"{"v":1,"id":{"a":1},"params":{"restaurantId":"r-000001"}}"#, .refused("malformed", id: .null)),
    .init("id as boolean", .getRestaurant, body: #"{"v":1,"id":true}"#, .refused("malformed", id: .null)),
    .init("id of 129 characters", .getRestaurant, body: request(id: String(repeating: "a", count: 129), params: get1), .refused("malformed", id: .null)),
    .init("id of 128 characters is echoed", .getRestaurant, body: request(id: String(repeating: "a", count: 128), params: get1), .accepted(id: .string(String(repeating: "a", count: 128)), check: restaurantIs("r-000001"))),
    .init("id of 128 two-byte characters is echoed", .getRestaurant, body: request(id: String(repeating: "é", count: 128), params: get1), .accepted(id: .string(String(repeating: "é", count: 128)), check: restaurantIs("r-000001"))),
    .init("id null is treated as absent", .getRestaurant, body: #"{"v":1,"id":null,"params":{"restaurantId":"r-000001"}}"#, .accepted(id: .null, check: restaurantIs("r-000001"))),
    // deadlineMs.
    .init("deadlineMs negative", .getRestaurant, body: request(id: "dneg", params: get1, deadlineMs: -1), .refused("malformed", id: "dneg")),
    .init("deadlineMs as string", .getRestaurant, body: #"{"v":1,"id":"dstr","params":{"restaurantId":"r-000001"},"deadlineMs":"100"}"#, .refused("malformed", id: "dstr")),
    .init("deadlineMs fractional", .getRestaurant, body: #"{"v":1,"id":"dfrac","params":{"restaurantId":"r-000001"},"deadlineMs":1.5}"#, .refused("malformed", id: "dfrac")),
    .init("deadlineMs generous is served", .getRestaurant, body: request(id: "dok", params: get1, deadlineMs: 60_000), .accepted(id: "dok", check: restaurantIs("r-000001"))),
    .init("deadlineMs Int.max is served", .getRestaurant, body: request(id: "dmax", params: get1, deadlineMs: Int.max), .accepted(id: "dmax", check: restaurantIs("r-000001"))),
    // idempotencyKey: a string of 1 to 128 characters; null counts as absent; reads ignore it.
    .init("idempotencyKey empty", .getRestaurant, body: request(id: "ik0", params: get1, extra: [("idempotencyKey", "")]), .refused("malformed", id: "ik0", naming: "idempotencyKey")),
    .init("idempotencyKey of 129 characters", .registerUser, body: request(id: "ik129", params: ["name": "K", "email": "k129@example.com"], extra: [("idempotencyKey", .string(String(repeating: "k", count: 129)))]), .refused("malformed", id: "ik129", naming: "idempotencyKey")),
    .init("idempotencyKey as number", .getRestaurant, body: request(id: "ikn", params: get1, extra: [("idempotencyKey", 7)]), .refused("malformed", id: "ikn", naming: "idempotencyKey")),
    .init("idempotencyKey as object", .placeOrder, body: request(id: "iko", params: [:], extra: [("idempotencyKey", ["k": "v"])]), .refused("malformed", id: "iko", naming: "idempotencyKey")),
    .init("idempotencyKey null is treated as absent", .getRestaurant, body: request(id: "iknull", params: get1, extra: [("idempotencyKey", .null)]), .accepted(id: "iknull", check: restaurantIs("r-000001"))),
    .init("idempotencyKey of 128 two-byte characters on a read is ignored", .getRestaurant, body: request(id: "ik128", params: get1, extra: [("idempotencyKey", .string(String(repeating: "é", count: 128)))]), .accepted(id: "ik128", check: restaurantIs("r-000001"))),
    // Unknown members are tolerated.
    .init("unknown envelope and params members", .getRestaurant, body: request(id: "unk", params: ["restaurantId": "r-000001", "bogus": [1, 2]], extra: [("extra", ["x": true]), ("op", "ignored")]), .accepted(id: "unk", check: restaurantIs("r-000001"))),
    // Param typing: invalid_input naming the field.
    .init("restaurantId: 5", .getRestaurant, body: request(id: "t1", params: ["restaurantId": 5]), .refused("invalid_input", id: "t1", naming: "restaurantId")),
    .init("restaurantId empty", .getRestaurant, body: request(id: "t1e", params: ["restaurantId": ""]), .refused("invalid_input", id: "t1e", naming: "restaurantId")),
    .init("userId: 7 in GetRestaurant", .getRestaurant, body: request(id: "t1u", params: ["restaurantId": "r-000001", "userId": 7]), .refused("invalid_input", id: "t1u", naming: "userId")),
    .init("months: \"3\"", .startSubscription, body: request(id: "t2", params: ["userId": "u-000002", "months": "3"]), .refused("invalid_input", id: "t2", naming: "months")),
    .init("months: 2.5", .startSubscription, body: request(id: "t3", params: ["userId": "u-000002", "months": 2.5]), .refused("invalid_input", id: "t3", naming: "months")),
    .init("latitude: \"north\"", .createRestaurant, body: request(id: "t4", params: ["name": "Typed", "cuisine": "Test", "priceLevel": 2, "address": "1 Way", "latitude": "north", "longitude": 0]), .refused("invalid_input", id: "t4", naming: "latitude")),
    .init("priceLevel: \"2\"", .createRestaurant, body: request(id: "t4p", params: ["name": "Typed", "cuisine": "Test", "priceLevel": "2", "address": "1 Way", "latitude": 1, "longitude": 0]), .refused("invalid_input", id: "t4p", naming: "priceLevel")),
    .init("openingHours: [1]", .createRestaurant, body: request(id: "t5", params: ["name": "Typed", "cuisine": "Test", "priceLevel": 2, "address": "1 Way", "latitude": 1, "longitude": 2, "openingHours": [1]]), .refused("invalid_input", id: "t5", naming: "openingHours")),
    .init("items: {}", .placeOrder, body: request(id: "t6", params: ["userId": "u-000003", "items": [:], "deliveryAddress": "1 Way"]), .refused("invalid_input", id: "t6", naming: "items")),
    .init("items[0] missing quantity", .placeOrder, body: request(id: "t7", params: ["userId": "u-000003", "items": [["itemId": "m-000001"]], "deliveryAddress": "1 Way"]), .refused("invalid_input", id: "t7", naming: "items[0].quantity")),
    .init("items[1].quantity: \"2\"", .placeOrder, body: request(id: "t7b", params: ["userId": "u-000003", "items": [["itemId": "m-000001", "quantity": 1], ["itemId": "m-000002", "quantity": "2"]], "deliveryAddress": "1 Way"]), .refused("invalid_input", id: "t7b", naming: "items[1].quantity")),
    .init("items[0] not an object", .placeOrder, body: request(id: "t7c", params: ["userId": "u-000003", "items": [5], "deliveryAddress": "1 Way"]), .refused("invalid_input", id: "t7c", naming: "items[0]")),
    .init("limit: \"10\"", .listRestaurants, body: request(id: "t8", params: ["limit": "10"]), .refused("invalid_input", id: "t8", naming: "limit")),
    .init("minRating: \"high\"", .listRestaurants, body: request(id: "t9", params: ["minRating": "high"]), .refused("invalid_input", id: "t9", naming: "minRating")),
    .init("limit 0 is out of range", .listRestaurants, body: request(id: "t10", params: ["limit": 0]), .refused("invalid_input", id: "t10", naming: "limit")),
    .init("limit 501 is out of range", .loadFeed, body: request(id: "t11", params: ["limit": 501]), .refused("invalid_input", id: "t11", naming: "limit")),
    .init("rating: \"5\"", .addReview, body: request(id: "t12", params: ["userId": "u-000004", "restaurantId": "r-000004", "rating": "5", "text": "x"]), .refused("invalid_input", id: "t12", naming: "rating")),
    // Missing required params: invalid_input naming the field.
    .init("GetRestaurant without restaurantId", .getRestaurant, body: request(id: "m1", params: [:]), .refused("invalid_input", id: "m1", naming: "restaurantId")),
    .init("SearchRestaurants without query", .searchRestaurants, body: request(id: "m2", params: ["limit": 5]), .refused("invalid_input", id: "m2", naming: "query")),
    .init("PlaceOrder without items", .placeOrder, body: request(id: "m3", params: ["userId": "u-000003", "deliveryAddress": "1 Way"]), .refused("invalid_input", id: "m3", naming: "items")),
    .init("AddReview without rating", .addReview, body: request(id: "m4", params: ["userId": "u-000004", "restaurantId": "r-000004", "text": "x"]), .refused("invalid_input", id: "m4", naming: "rating")),
    .init("RegisterUser without email", .registerUser, body: request(id: "m5", params: ["name": "No Mail"]), .refused("invalid_input", id: "m5", naming: "email")),
    .init("RestockMenuItem without quantity", .restockMenuItem, body: request(id: "m6", params: ["itemId": "m-000001"]), .refused("invalid_input", id: "m6", naming: "quantity")),
]

extension [UInt8] {
    /// The same JSON object without its `v` member.
    fileprivate func dropV() -> [UInt8] {
        guard case .object(let object)? = try? JSONParser.parse(self) else { return self }
        return JSONValue.object(JSONObject(members: object.members.filter { $0.key != "v" })).encoded()
    }
}

extension SeededWireTests {
    @Suite struct Envelope {
        @Test(arguments: envelopeCases)
        func envelopeAndParamRulesGiveTheContractReply(_ testCase: EnvelopeCase) async throws {
            let harness = try SeededService.harness()
            let frames = testCase.frames
            let received = try await withClient(.dealer, try harness.address(testCase.useCase)) { client in
                try client.send(frames: frames)
                return try client.receiveFrames()
            }
            let replyFrames = try #require(received, "no reply within 5 s")
            let reply = Reply(frames: replyFrames)
            // Whatever the request's envelope was, a DEALER that sent no non-empty frames before
            // the body gets the reply back as ["", body].
            #expect(replyFrames.count == 2 && replyFrames[0].isEmpty, "reply frames: \(replyFrames.map(\.count))")
            let json = try #require(reply.json, "the reply body is not JSON: \(reply)")
            #expect(reply.version == 1)
            switch testCase.outcome {
            case .refused(let code, let id, let naming):
                #expect(reply.ok == false, "\(reply)")
                #expect(reply.code == code, "\(reply)")
                #expect(reply.id == id, "\(reply)")
                #expect(json["result"] == nil)
                #expect(!(reply.message ?? "").isEmpty, "the error has a message")
                if let naming {
                    #expect(reply.message?.contains(naming) == true, "the message names \(naming): \(reply)")
                }
            case .accepted(let id, let check):
                #expect(reply.ok == true, "\(reply)")
                #expect(reply.id == id, "\(reply)")
                let result = try #require(reply.result, "\(reply)")
                if let check {
                    #expect(check(result), "unexpected result: \(reply)")
                }
            }
        }

        @Test func missingParamsWithRequiredFieldsHadNoEffect() async throws {
            // The refused RegisterUser without params must not have registered anything odd;
            // a follow-up registration with a fresh address still succeeds.
            let harness = try SeededService.harness()
            let address = try harness.address(.registerUser)
            let refused = try await call(address, request(id: "a", params: ["name": "Only Name"]))
            #expect(refused.code == "invalid_input")
            let email = uniqueEmail("after-refusal")
            let reply = try await call(address, request(id: "b", params: ["name": "Only Name", "email": .string(email)]))
            #expect(reply.ok == true, "\(reply)")
            #expect(reply.result?["user"]?["email"]?.stringValue == email)
        }
    }
}

import Testing
import WireJSON
@testable import Transport

/// The common-shape fast path of `WireRequest.decode` against the general decoder: on every
/// body, valid or not, the public decoder must give exactly what the general one gives.
@Suite("Request decoding")
struct RequestDecodingTests {
    /// What a decoder made of a body, comparable.
    private enum Outcome: Equatable, CustomStringConvertible {
        case request(id: String?, params: JSONObject, deadline: Int?, key: String?)
        case rejected(id: String?, error: WireError)

        var description: String {
            switch self {
            case .request(let id, let params, let deadline, let key): "request(id: \(id ?? "nil"), params: \(params.count) members \(params.keys), deadline: \(deadline.map(String.init) ?? "nil"), key: \(key ?? "nil"))"
            case .rejected(let id, let error): "rejected(id: \(id ?? "nil"), \(error))"
            }
        }
    }

    private static func outcome(_ decode: (UnsafeRawBufferPointer) throws(WireRequest.Rejection) -> WireRequest, _ body: [UInt8]) -> Outcome {
        body.withUnsafeBytes { bytes in
            do throws(WireRequest.Rejection) {
                let request = try decode(bytes)
                return .request(id: request.id, params: request.params.object, deadline: request.deadlineMilliseconds, key: request.idempotencyKey)
            } catch {
                return .rejected(id: error.id, error: error.error)
            }
        }
    }

    private static let seeds: [String] = [
        #"{"v":1,"id":"0","params":{"restaurantId":"r-000042"}}"#,
        #"{"v":1,"id":"63","params":{"restaurantId":"r-000042","userId":"u-1"}}"#,
        #" { "v" : 1 , "id" : "a b" , "params" : { "x" : [1, {"y": "z"}] } , "deadlineMs" : 250 } "#,
        "{\n\t\"params\":{},\r\n\"v\":1}",
        #"{"v":1}"#,
        #"{"v":1,"id":null,"params":null,"deadlineMs":null}"#,
        #"{"v":1,"id":"","deadlineMs":0}"#,
        #"{"v":1,"deadlineMs":007}"#,
        #"{"v":1,"deadlineMs":-1}"#,
        #"{"v":1,"deadlineMs":1.5}"#,
        #"{"v":1,"deadlineMs":123456789012345678901234}"#,
        #"{"v":1.0,"id":"x"}"#,
        #"{"v":2,"id":"x"}"#,
        #"{"v":"1","id":"x"}"#,
        #"{"v":10,"id":"x"}"#,
        #"{"id":"x"}"#,
        #"{"v":1,"id":"x","id":"y"}"#,
        #"{"v":1,"v":1}"#,
        #"{"v":1,"id":"é"}"#,
        #"{"v":1,"id":"a\"b"}"#,
        #"{"v":1,"id":"a\u0041"}"#,
        #"{"v":1,"id":7}"#,
        #"{"v":1,"extra":true,"params":{"a":1}}"#,
        #"{"v":1,"params":[]}"#,
        #"{"v":1,"params":"x"}"#,
        #"{"v":1,"params":{"a":"}"}}"#,
        #"{"v":1,"params":{"a":"\"}"}}"#,
        #"{"v":1,"params":{"a":]}"#,
        #"{"v":1,"params":{"a":1,"a":2}}"#,
        #"{"v":1,"params":{"s":"\u00e9\n"}}"#,
        #"{"v":1,"params":{"a":1}"#,
        #"{"v":1,"params":{"a":1}}}"#,
        #"{"v":1,}"#,
        #"{"v":1"#,
        #"{}"#,
        #"[]"#,
        #""v""#,
        "",
        " ",
        #"{"v":1,"id":"0","params":{"restaurantId":"r-000042"}} x"#,
        #"{"v":1,"id":"\#(String(repeating: "i", count: 128))"}"#,
        #"{"v":1,"id":"\#(String(repeating: "i", count: 129))"}"#,
        #"{"v":1,"params":\#(String(repeating: "[", count: 40))\#(String(repeating: "]", count: 40))}"#,
        #"{"v":1,"params":{"a":\#(String(repeating: "[", count: 70))\#(String(repeating: "]", count: 70))}}"#,
        #"{"v":1,"params":{"a":\#(String(repeating: "[", count: 62))\#(String(repeating: "]", count: 62))}}"#,
        #"{"v":1,"id":"x"}nul"#,
        #"{"v":1,"id":nul}"#,
        #"{"v":1,"id":nulls}"#,
        #"{"v":1,"id":"k","idempotencyKey":"order-7f3a","params":{"userId":"u-1"}}"#,
        #"{"idempotencyKey":null,"v":1}"#,
        #"{"v":1,"idempotencyKey":""}"#,
        #"{"v":1,"idempotencyKey":"\#(String(repeating: "k", count: 128))"}"#,
        #"{"v":1,"idempotencyKey":"\#(String(repeating: "k", count: 129))"}"#,
        #"{"v":1,"idempotencyKey":"\#(String(repeating: "é", count: 128))"}"#,
        #"{"v":1,"idempotencyKey":7}"#,
        #"{"v":1,"idempotencyKey":["k"]}"#,
        #"{"v":1,"idempotencyKey":"a\u0041"}"#,
        #"{"v":1,"idempotencyKey":"k","idempotencyKey":"j"}"#,
        #"{"v":1,"params":{"a":"x","a":"y"}}"#,
        #"{"v":1,"params":{ }}"#,
        #"{"v":1,"params":{ "restaurantId" : "r-000042" , "userId":"u-7" }}"#,
        #"{"v":1,"params":{"restaurantId":"r-000042","limit":20}}"#,
        #"{"v":1,"params":{"a":"x",}}"#,
        #"{"v":1,"params":{"a":"x""b":"y"}}"#,
        #"{"v":1,"params":{"a":"x"]}"#,
    ]

    @Test("the common shape is taken by the fast path")
    func fastPathTaken() {
        for body in Self.seeds[0...5] + [Self.seeds[Self.seeds.firstIndex { $0.contains("order-7f3a") }!]] {
            let taken = Array(body.utf8).withUnsafeBytes { WireRequest.decodeCommonShape($0) != nil }
            #expect(taken, "\(body)")
        }
    }

    @Test("the public decoder agrees with the general one on seeds and ~30k mutations of them")
    func agreesWithGeneralDecoder() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,\ 01v-.enul"#.utf8) + [0x0A, 0xC3, 0xA9, 0x00, 0x7F]
        var bodies = Self.seeds.map { Array($0.utf8) }
        for seed in Self.seeds where !seed.isEmpty {
            for _ in 0..<600 {
                var body = Array(seed.utf8)
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let index = Int.random(in: 0..<max(body.count, 1), using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0 where !body.isEmpty: body[index] = alphabet.randomElement(using: &generator)!
                    case 1: body.insert(alphabet.randomElement(using: &generator)!, at: min(index, body.count))
                    default: if !body.isEmpty { body.remove(at: index) }
                    }
                }
                bodies.append(body)
            }
        }
        var disagreements: [String] = []
        for body in bodies {
            let general = Self.outcome(WireRequest.decodeGeneral, body)
            let public_ = Self.outcome(WireRequest.decode, body)
            if general != public_ {
                disagreements.append("\(String(decoding: body, as: UTF8.self)): general \(general), decode \(public_)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}

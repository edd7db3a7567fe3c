import Foundation
import SeededRandom
import Testing
import WireJSON

/// Parses the UTF-8 of `text`, returning the error instead of throwing it.
func parseResult(_ bytes: [UInt8], limits: JSONParser.Limits = .init()) -> Result<JSONValue, JSONError> {
    Result { () throws(JSONError) -> JSONValue in try JSONParser.parse(bytes, limits: limits) }
}

/// Parses `text`, returning the error instead of throwing it.
func parseResult(_ text: String, limits: JSONParser.Limits = .init()) -> Result<JSONValue, JSONError> {
    parseResult(Array(text.utf8), limits: limits)
}

/// The error parsing `bytes` throws, or nil when it parses.
func parseError(_ bytes: [UInt8], limits: JSONParser.Limits = .init()) -> JSONError? {
    if case .failure(let error) = parseResult(bytes, limits: limits) { return error }
    return nil
}

/// The error parsing `text` throws, or nil when it parses.
func parseError(_ text: String, limits: JSONParser.Limits = .init()) -> JSONError? {
    parseError(Array(text.utf8), limits: limits)
}

/// The value `text` parses to, or nil when it is rejected.
func parsed(_ text: String) -> JSONValue? {
    try? parseResult(text).get()
}

/// The value `bytes` parse to, or nil when they are rejected.
func parsed(_ bytes: [UInt8]) -> JSONValue? {
    try? parseResult(bytes).get()
}

/// The compact encoding of `value` as a String (for readable expectations).
func encodedText(_ value: JSONValue) -> String {
    String(decoding: value.encoded(), as: UTF8.self)
}

/// The bundled JSONTestSuite `test_parsing` files, by name.
enum TestSuiteFiles {
    static let directory: URL = {
        guard let root = Bundle.module.url(forResource: "JSONTestSuite", withExtension: nil) else {
            fatalError("JSONTestSuite resource missing from the test bundle")
        }
        return root.appendingPathComponent("test_parsing")
    }()

    /// Every file name in `test_parsing`, sorted.
    static let allNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func names(prefix: String) -> [String] {
        allNames.filter { $0.hasPrefix(prefix) }
    }

    static func bytes(_ name: String, in folder: String = "test_parsing") -> [UInt8] {
        let url = directory.deletingLastPathComponent().appendingPathComponent(folder).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("cannot read \(folder)/\(name)")
        }
        return [UInt8](data)
    }
}

/// A request as the wire protocol sends it, used as a seed and in several tests.
let typicalRequest = #"{"v":1,"id":"abc-123","params":{"restaurantId":"r-00042","userId":"u-7"},"deadlineMs":500}"#

/// Random JSON values for round-trip and fuzz tests.
struct ValueGenerator {
    var rng: SplitMix64

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &rng)
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(0..<100) < percent
    }

    /// A value of at most `depth` nested levels; containers get rarer deeper down.
    mutating func value(depth: Int) -> JSONValue {
        let kinds = depth > 0 ? 8 : 6
        switch int(0..<kinds) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(number())
        case 3, 4: return .string(string())
        case 5: return .number(JSONNumber(Int64(bitPattern: rng.next()) >> UInt64(int(0..<64))))
        case 6:
            return .array((0..<int(0..<6)).map { _ in value(depth: depth - 1) })
        default:
            var members: [(String, JSONValue)] = []
            for _ in 0..<int(0..<6) {
                // Sometimes repeat a key: duplicates must survive the round trip.
                let key = !members.isEmpty && chance(15) ? members[int(0..<members.count)].0 : string()
                members.append((key, value(depth: depth - 1)))
            }
            return .object(JSONObject(members))
        }
    }

    /// A finite number: from a Double's bit pattern, or random grammar-valid text.
    mutating func number() -> JSONNumber {
        if chance(50) {
            var double = Double(bitPattern: rng.next())
            while !double.isFinite { double = Double(bitPattern: rng.next()) }
            return JSONNumber(double)
        }
        var text = chance(30) ? "-" : ""
        text += chance(20) ? "0" : String(int(1..<10)) + digits(int(0..<25))
        if chance(40) { text += "." + digits(int(1..<20)) }
        if chance(40) {
            text += ["e", "E"][int(0..<2)] + ["", "+", "-"][int(0..<3)] + digits(int(1..<6))
        }
        return JSONNumber(text: text)!
    }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(int(0..<10))) })
    }

    /// A string mixing ASCII, characters that need escaping, and every UTF-8 length.
    mutating func string() -> String {
        let pools: [[Unicode.Scalar]] = [
            Array("abcxyz019 -_/".unicodeScalars),
            ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}"],
            ["é", "ß", "\u{7FF}", "€", "\u{FFFF}", "\u{E000}", "\u{D7FF}", "日", "\u{2028}"],
            ["😀", "𝄞", "\u{10000}", "\u{10FFFF}"],
        ]
        var scalars = String.UnicodeScalarView()
        let length = chance(5) ? int(16..<200) : int(0..<16)
        for _ in 0..<length {
            if chance(10) {
                // any valid scalar
                var value = UInt32(int(0..<0x11_0000))
                if (0xD800...0xDFFF).contains(value) { value = 0x41 }
                scalars.append(Unicode.Scalar(value)!)
            } else {
                let pool = pools[int(0..<pools.count)]
                scalars.append(pool[int(0..<pool.count)])
            }
        }
        return String(scalars)
    }
}

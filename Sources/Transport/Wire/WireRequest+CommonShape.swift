import Domain
import WireContract
import WireJSON

extension WireRequest {
    /// Decodes the common request shape by scanning the envelope object directly, without
    /// building a `JSONValue` tree for it: members `v` (exactly `1`), `id` (a string of printable
    /// ASCII without escapes, or `null`), `params` (an object, or `null`: scanned here when every
    /// member's value is a string like `id`, else parsed by `JSONParser`), `deadlineMs` (digits,
    /// or `null`) and `idempotencyKey` (like `id` but not empty, or `null`),
    /// each at most once, in any order, with JSON whitespace anywhere between tokens.
    ///
    /// Returns `nil` for anything else (unknown or repeated members, escapes or non-ASCII in
    /// `id`, other number spellings, invalid JSON, ...), and the caller then runs the general
    /// decoder, which decides and words every error. So this never rejects: whatever it
    /// accepts, the general decoder would decode to the same request.
    static func decodeCommonShape(_ body: UnsafeRawBufferPointer) -> WireRequest? {
        guard let base = body.baseAddress else { return nil }
        var scanner = RequestScanner(base: base.assumingMemoryBound(to: UInt8.self), count: body.count)
        return scanner.scanRequest()
    }
}

/// The scanner behind ``WireRequest/decodeCommonShape(_:)``; every method returns `nil` (or
/// `false`) as soon as the input leaves the common shape.
private struct RequestScanner {
    /// The body's bytes (`count` of them); every read checks `position < count` first.
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0

    /// Deepest nesting accepted inside `params` (the general parser allows 64 from the root;
    /// staying well below keeps the two in agreement).
    static let maximumParamsDepth = 32

    private static let quote = UInt8(ascii: "\"")
    /// The protocol version, a single digit.
    private static let versionDigit = UInt8(ascii: "0") + UInt8(WireEnvelope.version)
    private static let backslash = UInt8(ascii: "\\")

    mutating func scanRequest() -> WireRequest? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: (version: Bool, id: Bool, params: Bool, deadline: Bool, key: Bool) = (false, false, false, false, false)
        var id: String?
        var idempotencyKey: String?
        var params = JSONObject()
        var deadline: Int?
        while true {
            skipWhitespace()
            guard let key = plainString() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            if equals(key, WireEnvelope.Key.version.literal) {
                guard !seen.version, take(Self.versionDigit) else { return nil }
                seen.version = true
            } else if equals(key, WireEnvelope.Key.id.literal) {
                guard !seen.id else { return nil }
                seen.id = true
                if !takeNull() {
                    guard let text = plainString(), text.count <= WireRequest.maximumIdLength else { return nil }
                    id = string(text)
                }
            } else if equals(key, WireEnvelope.Key.params.literal) {
                guard !seen.params else { return nil }
                seen.params = true
                if let object = plainStringObject() {
                    params = object
                } else if !takeNull() {
                    guard let text = objectText(),
                          case .object(let object)? = try? JSONParser.parse(UnsafeRawBufferPointer(start: base + text.lowerBound, count: text.count))
                    else { return nil }
                    params = object
                }
            } else if equals(key, WireEnvelope.Key.deadline.literal) {
                guard !seen.deadline else { return nil }
                seen.deadline = true
                if !takeNull() {
                    guard let milliseconds = digits() else { return nil }
                    deadline = milliseconds
                }
            } else if equals(key, WireEnvelope.Key.idempotencyKey.literal) {
                guard !seen.key else { return nil }
                seen.key = true
                if !takeNull() {
                    guard let text = plainString(), IdempotencyClaim.keyLengths.contains(text.count) else { return nil }
                    idempotencyKey = string(text)
                }
            } else {
                return nil
            }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            break
        }
        skipWhitespace()
        guard position == count, seen.version else { return nil }
        return WireRequest(id: id, params: Params(params), deadlineMilliseconds: deadline, idempotencyKey: idempotencyKey)
    }

    /// Whether the bytes in `range` are `text`.
    private func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        var i = 0
        while i < range.count {
            if base[range.lowerBound + i] != text.utf8Start[i] { return false }
            i += 1
        }
        return true
    }

    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < count, base[position] == byte else { return false }
        position += 1
        return true
    }

    /// `null`; whatever follows is checked by the caller (a delimiter must come next).
    private mutating func takeNull() -> Bool {
        guard count - position >= 4, base[position] == UInt8(ascii: "n"), base[position + 1] == UInt8(ascii: "u"),
              base[position + 2] == UInt8(ascii: "l"), base[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    /// A string of printable ASCII without escapes; the range of its content, without the quotes.
    private mutating func plainString() -> Range<Int>? {
        guard take(Self.quote) else { return nil }
        let start = position
        while position < count {
            let byte = base[position]
            if byte == Self.quote {
                position += 1
                return start..<position - 1
            }
            guard byte >= 0x20, byte < 0x7F, byte != Self.backslash else { return nil }
            position += 1
        }
        return nil
    }

    /// A non-negative integer in JSON's spelling (no leading zeros) of at most 18 digits.
    private mutating func digits() -> Int? {
        let start = position
        var value = 0
        while position < count, base[position] >= UInt8(ascii: "0"), base[position] <= UInt8(ascii: "9") {
            guard position - start < 18 else { return nil }
            value = value * 10 + Int(base[position] - UInt8(ascii: "0"))
            position += 1
        }
        let length = position - start
        guard length > 0, length == 1 || base[start] != UInt8(ascii: "0") else { return nil }
        return value
    }

    /// The object starting here when every member's value is a plain string (a read's params, most
    /// often), built without the general parser; `nil`, with the position left where it was,
    /// for any other object.
    private mutating func plainStringObject() -> JSONObject? {
        let start = position
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return JSONObject() }
        var members: [JSONObject.Member] = []
        while true {
            skipWhitespace()
            guard let key = plainString() else { break }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { break }
            skipWhitespace()
            guard let value = plainString(), max(key.count, value.count) <= Self.maximumStringBytes else { break }
            members.append(JSONObject.Member(key: string(key), value: .string(string(value))))
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { break }
            return JSONObject(members: members)
        }
        position = start
        return nil
    }

    /// The general parser's limit on a string, which the plain-string object keeps too.
    private static let maximumStringBytes = JSONParser.Limits().maxStringBytes

    /// The bytes in `range` as a string (plain ASCII, as ``plainString()`` checked).
    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// The bytes of the object starting here, through its matching `}`: brackets are counted
    /// outside strings (escapes skipped). Whether they are valid JSON is for the parser to say.
    private mutating func objectText() -> Range<Int>? {
        guard position < count, base[position] == UInt8(ascii: "{") else { return nil }
        let start = position
        var depth = 0
        var inString = false
        while position < count {
            let byte = base[position]
            position += 1
            if inString {
                if byte == Self.backslash {
                    position += 1
                } else if byte == Self.quote {
                    inString = false
                }
                continue
            }
            switch byte {
            case Self.quote:
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= Self.maximumParamsDepth else { return nil }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    return start..<position
                }
            default:
                break
            }
        }
        return nil
    }
}

/// A parsed (or to-be-encoded) JSON value.
///
/// Equality and hashing are structural: numbers compare by text (see ``JSONNumber``),
/// objects by their members in order (see ``JSONObject``).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its source text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: ordered members, duplicates kept, last one wins on lookup.
    case object(JSONObject)

    /// An integer number value.
    public static func int(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// A floating-point number value; infinity and NaN encode as `null`
    /// (see ``JSONNumber/init(_:)-(Double)``).
    public static func double(_ value: Double) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// For an object, the value of the last member with this key; otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// For an array, the element at `index` when it is in range; otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The number, if this is a number.
    public var numberValue: JSONNumber? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// The number as an `Int64`, if this is a number that is an integer fitting `Int64`
    /// (see ``JSONNumber/int64Value``).
    public var int64Value: Int64? {
        numberValue?.int64Value
    }

    /// The number as an `Int`, if this is a number that is an integer fitting `Int`.
    public var intValue: Int? {
        numberValue?.intValue
    }

    /// The number as the nearest `Double`, if this is a number.
    public var doubleValue: Double? {
        numberValue?.doubleValue
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let array) = self else { return nil }
        return array
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String {
        String(decoding: encoded(), as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` as `null`.
    public init(nilLiteral: ()) {
        self = .null
    }

    /// A Boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// An integer literal as a number.
    public init(integerLiteral value: Int) {
        self = .number(JSONNumber(value))
    }

    /// A floating-point literal as a number.
    public init(floatLiteral value: Double) {
        self = .number(JSONNumber(value))
    }

    /// A string literal as a string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// An array literal as an array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// A dictionary literal as an object, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue {
    /// The value encoded as compact JSON (UTF-8, no whitespace).
    ///
    /// Numbers built from infinite or NaN `Double`s are written as `null`.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(self)
        return writer.finish()
    }
}

import Domain
import WireContract
import WireJSON

/// Typed access to a request's `params` object. Every failure is `invalid_input` with a message
/// that names the field; unknown fields are ignored; an explicit `null` counts as absent.
public struct Params: Sendable {
    /// The params object as received.
    public let object: JSONObject
    /// Prepended to field names in messages, e.g. `items[2].` for a nested object.
    public let path: String

    /// Wraps a params object; `path` prefixes field names in error messages.
    public init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    private func missing(_ key: String) -> WireError {
        WireError(.invalidInput, "\(path)\(key): is required")
    }

    private func wrongType(_ key: String, _ expected: String) -> WireError {
        WireError(.invalidInput, "\(path)\(key): must be \(expected)")
    }

    /// A required string.
    public func string(_ key: String) throws(WireError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// An optional string.
    public func optionalString(_ key: String) throws(WireError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, "a string") }
        return text
    }

    /// A required integer (a JSON number with an integral value that fits 64 bits).
    public func int(_ key: String) throws(WireError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key) }
        return value
    }

    /// An optional integer.
    public func optionalInt(_ key: String) throws(WireError) -> Int? {
        guard let value = present(key) else { return nil }
        return try integer(value, key)
    }

    /// A required finite number.
    public func double(_ key: String) throws(WireError) -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key) }
        return value
    }

    /// An optional finite number.
    public func optionalDouble(_ key: String) throws(WireError) -> Double? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value else { throw wrongType(key, "a number") }
        guard number.doubleValue.isFinite else { throw wrongType(key, "a finite number") }
        return number.doubleValue
    }

    /// An optional array of strings.
    public func optionalStringArray(_ key: String) throws(WireError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value else { throw wrongType(key, "an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element else { throw wrongType(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// A required array of objects, each read with `read` (whose errors name `key[index].field`).
    public func objectArray<Element>(_ key: String, _ read: (Params) throws(WireError) -> Element) throws(WireError) -> [Element] {
        guard let value = present(key) else { throw missing(key) }
        guard case .array(let elements) = value else { throw wrongType(key, "an array of objects") }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else { throw wrongType("\(key)[\(index)]", "an object") }
            result.append(try read(Params(object, path: "\(path)\(key)[\(index)].")))
        }
        return result
    }

    private func integer(_ value: JSONValue, _ key: String) throws(WireError) -> Int {
        guard case .number(let number) = value else { throw wrongType(key, "an integer") }
        guard let integer = number.intValue else { throw wrongType(key, "an integer") }
        return integer
    }
}

extension Params {
    /// A required entity id: a non-empty string of at most 128 characters.
    public func identifier<Entity>(_ key: String, as type: Entity.Type = Entity.self) throws(WireError) -> Identifier<Entity> {
        guard let id = try optionalIdentifier(key, as: type) else { throw WireError(.invalidInput, "\(path)\(key): is required") }
        return id
    }

    /// An optional entity id.
    public func optionalIdentifier<Entity>(_ key: String, as type: Entity.Type = Entity.self) throws(WireError) -> Identifier<Entity>? {
        guard let text = try optionalString(key) else { return nil }
        // A string never has more characters than UTF-8 bytes: count characters (a walk over
        // grapheme clusters) only when the byte count does not settle it.
        guard !text.isEmpty, text.utf8.count <= WireSchema.maximumIdentifierLength || text.count <= WireSchema.maximumIdentifierLength else {
            throw WireError(.invalidInput, "\(path)\(key): must be a non-empty id of at most \(WireSchema.maximumIdentifierLength) characters")
        }
        return Identifier(text)
    }

    /// An optional page cursor.
    public func optionalCursor(_ key: String = WireMember.cursor.name) throws(WireError) -> PageCursor? {
        try optionalString(key).map(PageCursor.init(token:))
    }
}

import WireJSON

/// The shape of a JSON value on the wire, as much as a caller needs to check a request or a
/// reply: its type, which object members are required, ranges and lengths where the service
/// enforces them exactly. Rendered as a JSON Schema (draft 2020-12) by ``jsonSchema``; `describe`
/// answers those.
///
/// Texts the service trims before checking their length carry the limit in their description
/// only: a longer text with surrounding blanks is accepted, so a `maxLength` would be stricter
/// than the service.
public indirect enum WireSchema: Sendable, Hashable {
    /// A string; `values`, when given, lists every allowed value.
    case string(minLength: Int? = nil, maxLength: Int? = nil, values: [String]? = nil, pattern: String? = nil, description: String? = nil)
    /// A number that is an integer (1.0 counts, as on the wire).
    case integer(minimum: Int? = nil, maximum: Int? = nil, description: String? = nil)
    /// Any finite number.
    case number(minimum: Double? = nil, maximum: Double? = nil, description: String? = nil)
    /// `true` or `false`.
    case boolean
    /// An array of `items`.
    case array(WireSchema, minItems: Int? = nil, maxItems: Int? = nil)
    /// An object with these members (others are allowed and ignored).
    case object([Member])
    /// `schema`, or `null`.
    case nullable(WireSchema)
    /// Any JSON object.
    case anyObject

    /// One member of an object schema.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public let name: String
        /// Its value's schema.
        public let schema: WireSchema
        /// Whether it must be present; an optional request member may also be `null`.
        public let required: Bool

        /// A member.
        public init(_ name: String, _ schema: WireSchema, required: Bool = true) {
            self.name = name
            self.schema = schema
            self.required = required
        }
    }

    /// The JSON Schema (draft 2020-12) of this shape.
    public var jsonSchema: JSONValue {
        switch self {
        case .string(let minLength, let maxLength, let values, let pattern, let description):
            var object: JSONObject = ["type": "string"]
            if let values { object.append(key: "enum", value: .array(values.map(JSONValue.string))) }
            if let minLength { object.append(key: "minLength", value: .int(minLength)) }
            if let maxLength { object.append(key: "maxLength", value: .int(maxLength)) }
            if let pattern { object.append(key: "pattern", value: .string(pattern)) }
            if let description { object.append(key: "description", value: .string(description)) }
            return .object(object)
        case .integer(let minimum, let maximum, let description):
            return Self.bounded("integer", minimum: minimum.map(JSONValue.int), maximum: maximum.map(JSONValue.int), description: description)
        case .number(let minimum, let maximum, let description):
            return Self.bounded("number", minimum: minimum.map(JSONValue.double), maximum: maximum.map(JSONValue.double), description: description)
        case .boolean:
            return ["type": "boolean"]
        case .array(let items, let minItems, let maxItems):
            var object: JSONObject = ["type": "array", "items": items.jsonSchema]
            if let minItems { object.append(key: "minItems", value: .int(minItems)) }
            if let maxItems { object.append(key: "maxItems", value: .int(maxItems)) }
            return .object(object)
        case .object(let members):
            var properties = JSONObject()
            for member in members {
                // An optional request member may be sent as null, which counts as absent.
                properties.append(key: member.name, value: member.required ? member.schema.jsonSchema : WireSchema.nullable(member.schema).jsonSchema)
            }
            return [
                "type": "object", "properties": .object(properties),
                "required": .array(members.filter(\.required).map { .string($0.name) }),
            ]
        case .nullable(let schema):
            if case .nullable = schema { return schema.jsonSchema }
            return ["anyOf": [schema.jsonSchema, ["type": "null"]]]
        case .anyObject:
            return ["type": "object"]
        }
    }

    /// A number schema of `type` with its bounds and description, where given.
    private static func bounded(_ type: String, minimum: JSONValue?, maximum: JSONValue?, description: String?) -> JSONValue {
        var object: JSONObject = ["type": .string(type)]
        if let minimum { object.append(key: "minimum", value: minimum) }
        if let maximum { object.append(key: "maximum", value: maximum) }
        if let description { object.append(key: "description", value: .string(description)) }
        return .object(object)
    }
}

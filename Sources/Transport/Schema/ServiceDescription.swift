import WireContract
import WireJSON

/// What the admin op `describe` answers: every use case's params and result as JSON Schemas
/// (draft 2020-12) with the codes it can answer, every event type's data, the event log's
/// params and result, and every error code — all derived from ``UseCaseName``'s and
/// ``EventType``'s schemas.
public enum ServiceDescription {
    /// The JSON Schema dialect of every schema.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// `{"protocol": 1, "useCases": […], "events": […], "eventLog": {…}, "errorCodes": […]}`.
    public static var json: JSONValue {
        .object(JSONObject([
            ("protocol", .int(WireEnvelope.version)),
            ("useCases", .array(UseCaseName.allCases.map(useCase))),
            ("events", .array(EventType.allCases.map { type in
                .object(JSONObject([("type", .string(type.rawValue)), ("data", schema(type.dataSchema))]))
            })),
            ("eventLog", .object(JSONObject([("params", schema(.eventLogParams)), ("result", schema(.eventLogResult))]))),
            ("errorCodes", .array(WireErrorCode.allCases.map { .string($0.rawValue) })),
        ]))
    }

    /// One use case's entry: `{"name", "write", "params", "result", "errors"}`.
    public static func useCase(_ name: UseCaseName) -> JSONValue {
        .object(JSONObject([
            ("name", .string(name.rawValue)), ("write", .bool(name.writes)),
            ("params", schema(name.paramsSchema)), ("result", schema(name.resultSchema)),
            ("errors", .array(name.errorCodes.map { .string($0.rawValue) })),
        ]))
    }

    /// `shape`'s JSON Schema as a document of its own (with `$schema`).
    private static func schema(_ shape: WireSchema) -> JSONValue {
        guard case .object(let body) = shape.jsonSchema else { return shape.jsonSchema }
        return .object(JSONObject([("$schema", .string(dialect))] + body.map { ($0.key, $0.value) }))
    }
}

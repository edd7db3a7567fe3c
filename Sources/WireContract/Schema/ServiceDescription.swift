import WireJSON

/// What the admin op `describe` answers: every use case's params and result as JSON Schemas
/// (draft 2020-12) with the codes it can answer, every event type's data, the event log's
/// params and result, and every error code — all derived from ``UseCaseName``'s and
/// ``EventType``'s schemas.
public enum ServiceDescription {
    private typealias D = AdminOperation.Description

    /// The JSON Schema dialect of every schema.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// `{"protocol": 1, "useCases": […], "events": […], "eventLog": {…}, "errorCodes": […]}`.
    public static var json: JSONValue {
        .object(JSONObject([
            (D.protocolVersion, .int(WireEnvelope.version)),
            (D.useCases, .array(UseCaseName.allCases.map(useCase))),
            (D.events, .array(EventType.allCases.map { type in
                .object(JSONObject([(D.type, .string(type.rawValue)), (D.data, schema(type.dataSchema))]))
            })),
            (D.eventLog, .object(JSONObject([(D.params, schema(.eventLogParams)), (D.result, schema(.eventLogResult))]))),
            (D.errorCodes, .array(WireErrorCode.allCases.map { .string($0.rawValue) })),
        ]))
    }

    /// One use case's entry: `{"name", "write", "params", "result", "errors"}`.
    public static func useCase(_ name: UseCaseName) -> JSONValue {
        .object(JSONObject([
            (D.name, .string(name.rawValue)), (D.write, .bool(name.writes)),
            (D.params, schema(name.paramsSchema)), (D.result, schema(name.resultSchema)),
            (D.errors, .array(name.errorCodes.map { .string($0.rawValue) })),
        ]))
    }

    /// `shape`'s JSON Schema as a document of its own (with `$schema`).
    private static func schema(_ shape: WireSchema) -> JSONValue {
        guard case .object(let body) = shape.jsonSchema else { return shape.jsonSchema }
        return .object(JSONObject([("$schema", .string(dialect))] + body.map { ($0.key, $0.value) }))
    }
}

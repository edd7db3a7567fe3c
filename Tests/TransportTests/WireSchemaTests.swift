import Testing
import Transport
import WireContract
import WireJSON

/// How a ``WireSchema`` becomes JSON Schema: required and optional members (an optional one may
/// be null, which counts as absent), nullable values, bounds; and that every use case's params
/// require what its route cannot do without.
@Suite struct WireSchemaTests {
    @Test func anObjectListsItsRequiredMembersAndLetsAnOptionalOneBeNull() {
        let schema = WireSchema.object([.init("id", .string(minLength: 1)), .init("limit", .integer(minimum: 1, maximum: 500), required: false)])
        let expected: JSONValue = [
            "type": "object",
            "properties": [
                "id": ["type": "string", "minLength": 1],
                "limit": ["anyOf": [["type": "integer", "minimum": 1, "maximum": 500], ["type": "null"]]],
            ],
            "required": ["id"],
        ]
        #expect(schema.jsonSchema == expected)
    }

    @Test func aNullableValueIsNullableOnceEvenWhenOptional() {
        let schema = WireSchema.object([.init("next", .nullable(.string()), required: false)])
        #expect(schema.jsonSchema["properties"]?["next"] == ["anyOf": [["type": "string"], ["type": "null"]]])
    }

    @Test func everyUseCasesParamsAndResultAreObjectsWithRequiredMembersExceptTheAllOptionalListings() {
        for name in UseCaseName.allCases {
            let params = name.paramsSchema.jsonSchema, result = name.resultSchema.jsonSchema
            #expect(params["type"] == "object" && result["type"] == "object", "\(name)")
            let resultRequired = result["required"]?.arrayValue ?? [], required = params["required"]?.arrayValue ?? []
            #expect(resultRequired.count > 0, "\(name)")
            let allOptional = [UseCaseName.listRestaurants, .loadFeed].contains(name)
            #expect(required.isEmpty == allOptional, "\(name): \(required)")
        }
    }

    @Test func theEventLogsTypesAreTheContractsEventTypes() {
        let description = ServiceDescription.json
        let types = description["eventLog"]?["params"]?["properties"]?["types"]?["anyOf"]?[0]?["items"]?["enum"]
        #expect(types == .array(EventType.allCases.map { .string($0.rawValue) }))
    }
}

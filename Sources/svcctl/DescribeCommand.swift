import ArgumentParser
import WireContract
import WireJSON

/// `svcctl describe [USECASE]`: the use cases' params and results as JSON Schemas, as svcd
/// describes them.
struct DescribeCommand: ParsableCommand {
    private typealias D = AdminOperation.Description

    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe the use cases (params, result, error codes) and events as JSON Schemas.",
        discussion: "Without --json: a table of the use cases and their params, or, with USECASE, its params and result members. With --json: the admin op's result (JSON Schema, draft 2020-12), or that use case's entry."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Only this use case, e.g. PlaceOrder.")
    var useCase: String?

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let name = try useCase.map { name throws(CtlFailure) in try ServiceEndpoints.useCase(named: name) }
            let result = try AdminClient(options: options).call(op: .describe)
            guard let name else {
                emit(result, options: options, human: Self.render)
                return
            }
            guard let entry = result[D.useCases]?.arrayValue?.first(where: { $0[D.name]?.stringValue == name.rawValue }) else {
                throw CtlFailure(ExitStatus.serviceError, "svcd does not describe \(name)")
            }
            emit(entry, options: options, human: Self.renderUseCase)
        }
    }

    /// One row per use case: its name, whether it writes, its params (optional ones with `?`).
    static func render(_ result: JSONValue) -> String {
        let rows = (result[D.useCases]?.arrayValue ?? []).map { entry in
            [plainText(entry[D.name]), entry[D.write]?.boolValue == true ? "write" : "read", members(of: entry[D.params]).joined(separator: ", ")]
        }
        return renderTable(headers: ["USE CASE", "KIND", "PARAMS"], rows: rows)
    }

    /// A use case's params (name, type, required, rules), its result members and its codes.
    static func renderUseCase(_ entry: JSONValue) -> String {
        var rows: [[String]] = []
        let required = Set((entry[D.params]?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for member in entry[D.params]?["properties"]?.objectValue ?? JSONObject() {
            rows.append([member.key, type(of: member.value), required.contains(member.key) ? "yes" : "no", rules(of: member.value)])
        }
        return [
            "\(plainText(entry[D.name])) (\(entry[D.write]?.boolValue == true ? "write" : "read"))",
            renderTable(headers: ["PARAM", "TYPE", "REQUIRED", "RULES"], rows: rows),
            "result: " + members(of: entry[D.result]).joined(separator: ", "),
            "errors: " + (entry[D.errors]?.arrayValue ?? []).map { plainText($0) }.joined(separator: ", "),
        ].joined(separator: "\n")
    }

    /// An object schema's member names, optional ones ending in `?`.
    private static func members(of schema: JSONValue?) -> [String] {
        let required = Set((schema?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        return (schema?["properties"]?.objectValue ?? JSONObject()).map { required.contains($0.key) ? $0.key : $0.key + "?" }
    }

    /// A schema's type, looking through `anyOf [T, null]`.
    private static func type(of schema: JSONValue) -> String {
        if let alternatives = schema["anyOf"]?.arrayValue {
            return alternatives.map { type(of: $0) }.joined(separator: " or ")
        }
        let base = plainText(schema["type"])
        if base == "array", let items = schema["items"] { return "array of \(type(of: items))" }
        return base
    }

    /// A schema's ranges, lengths, allowed values and description, in words.
    private static func rules(of schema: JSONValue) -> String {
        let target = schema["anyOf"]?.arrayValue?.first ?? schema
        var parts: [String] = []
        if let minimum = target["minimum"], let maximum = target["maximum"] {
            parts.append("\(plainText(minimum))…\(plainText(maximum))")
        } else if let minimum = target["minimum"] {
            parts.append("≥ \(plainText(minimum))")
        }
        if let values = target["enum"]?.arrayValue { parts.append("one of " + values.map { plainText($0) }.joined(separator: ", ")) }
        // A trimmed text's description says more than its minLength.
        if let minLength = target["minLength"]?.intValue, minLength > 0, target["description"] == nil { parts.append("not empty") }
        if let maxLength = target["maxLength"] { parts.append("at most \(plainText(maxLength)) characters") }
        switch (target["minItems"], target["maxItems"]) {
        case (let minimum?, let maximum?): parts.append("\(plainText(minimum))…\(plainText(maximum)) items")
        case (let minimum?, nil): parts.append("at least \(plainText(minimum)) items")
        case (nil, let maximum?): parts.append("at most \(plainText(maximum)) items")
        case (nil, nil): break
        }
        if let description = target["description"] { parts.append(plainText(description)) }
        return parts.joined(separator: "; ")
    }
}

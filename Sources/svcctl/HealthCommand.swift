import ArgumentParser
import WireContract
import WireJSON

/// `svcctl health`: svcd's overall health and its individual checks.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Show svcd's health checks."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .health)
            emit(result, options: options, human: Self.render)
        }
    }

    /// `healthy: yes|no`, then one line per check.
    static func render(_ result: JSONValue) -> String {
        typealias Key = AdminOperation.Result
        var pairs: [(String, String)] = [(Key.healthy, result[Key.healthy]?.boolValue == true ? "yes" : "no")]
        for member in result[Key.checks]?.objectValue ?? JSONObject() {
            pairs.append(("  " + member.key, plainText(member.value)))
        }
        for member in result.objectValue ?? JSONObject() where member.key != Key.healthy && member.key != Key.checks {
            pairs.append((member.key, plainText(member.value)))
        }
        return keyValueLines(pairs)
    }
}

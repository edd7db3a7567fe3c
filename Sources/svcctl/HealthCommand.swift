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
        var pairs: [(String, String)] = [("healthy", result["healthy"]?.boolValue == true ? "yes" : "no")]
        for member in result["checks"]?.objectValue ?? JSONObject() {
            pairs.append(("  " + member.key, plainText(member.value)))
        }
        for member in result.objectValue ?? JSONObject() where member.key != "healthy" && member.key != "checks" {
            pairs.append((member.key, plainText(member.value)))
        }
        return keyValueLines(pairs)
    }
}

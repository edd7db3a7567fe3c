import ArgumentParser
import WireContract
import WireJSON

/// `svcctl health`: svcd's overall health and its individual checks.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Show svcd's health checks (exit status 2 when one failed).",
        discussion: "Exits 0 when svcd is healthy and 2 when it answered but a check failed (e.g. its store cannot be reached), so scripts and probes can test the status."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .health)
            emit(result, options: options, human: Self.render)
            if result[AdminOperation.Result.healthy]?.boolValue != true {
                throw CtlFailure(ExitStatus.unhealthy, "svcd is not healthy: a check failed")
            }
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

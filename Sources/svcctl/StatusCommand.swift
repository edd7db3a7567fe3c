import ArgumentParser
import WireContract
import WireJSON

/// `svcctl status`: whether svcd runs, its state, version, pid and uptime. Exit 3 when no
/// svcd process is running (or its admin endpoint refuses connections: the pid was reused), 75
/// when the process exists but does not answer in time (hung or overloaded: not a reason to
/// start a second one).
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether svcd is running, its state, version, pid and uptime (exit 3 if not running, 75 if it does not answer)."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let endpoints: ServiceEndpoints
            switch ServiceEndpoints.locate(dataDirectory: options.dataDirectory) {
            case .success(let found): endpoints = found
            case .failure(let absence): throw CtlFailure(ExitStatus.notRunning, absence.description)
            }
            let result: JSONValue
            do throws(CtlFailure) {
                result = try AdminClient(options: options, endpoints: endpoints).call(op: .status)
            } catch {
                guard error.noAnswer else { throw error }
                if error.exitCode == ExitStatus.timedOut {
                    throw CtlFailure(
                        ExitStatus.timedOut,
                        "svcd (pid \(endpoints.pid)) is running but does not answer (hung or overloaded; do not start another on this data directory): \(error.message)"
                    )
                }
                throw CtlFailure(ExitStatus.notRunning, "svcd is not running: process \(endpoints.pid) refuses admin connections: \(error.message)")
            }
            emit(result, options: options, human: Self.render)
        }
    }

    /// `key: value` lines, uptime in days/hours/minutes/seconds.
    static func render(_ result: JSONValue) -> String {
        var pairs: [(String, String)] = []
        for member in result.objectValue ?? JSONObject() {
            if member.key == AdminOperation.Result.uptimeSeconds, let seconds = member.value.doubleValue {
                pairs.append(("uptime", formatUptime(Int(seconds))))
            } else {
                pairs.append((member.key, plainText(member.value)))
            }
        }
        return keyValueLines(pairs)
    }
}

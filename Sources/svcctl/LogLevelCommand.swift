import ArgumentParser
import WireContract

/// `svcctl log-level LEVEL`: changes svcd's log level at run time.
struct LogLevelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-level",
        abstract: "Change svcd's log level (trace, debug, info, notice, warning, error, critical)."
    )

    /// The levels svcd (swift-log) knows.
    static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    @OptionGroup var options: GlobalOptions

    @Argument(help: "trace, debug, info, notice, warning, error or critical.")
    var level: String

    func validate() throws {
        guard Self.levels.contains(level) else {
            throw ValidationError("LEVEL must be one of: \(Self.levels.joined(separator: ", "))")
        }
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .setLogLevel, params: [AdminOperation.Parameter.level: .string(level)])
            emit(result, options: options) { keyValueLines([(AdminOperation.Result.level, plainText($0[AdminOperation.Result.level]))]) }
        }
    }
}

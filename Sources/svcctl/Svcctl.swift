import ArgumentParser
import Foundation

/// `svcctl`: the operators' admin client for svcd.
///
/// Every subcommand finds the service through `DATA_DIR/endpoints.json` and talks to its
/// CURVE-secured admin endpoint (or, for `call`, to a use-case endpoint). Exit codes follow
/// `sysexits.h`; see ``ExitStatus``.
@main
struct Svcctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svcctl",
        abstract: "Administer a running svcd through its CURVE-secured admin endpoint.",
        discussion: """
            Exit codes: 0 ok; 1 the service answered with an error (`stress`: an invariant \
            violated); 2 `health` found a failed check; 3 `status` when no svcd is running; \
            64 usage error; 65 bad input data; 69 service unavailable; 75 no answer within the \
            timeout (`call`: also an error whose outcome is unknown).
            """,
        subcommands: [
            StatusCommand.self, EndpointsCommand.self, StatsCommand.self, HealthCommand.self,
            CallCommand.self, DrainCommand.self, ResumeCommand.self, ShutdownCommand.self,
            BackupCommand.self, LogLevelCommand.self, KeygenCommand.self, StressCommand.self, EventsCommand.self,
            DescribeCommand.self,
        ]
    )

    /// Entry point: accepts the global options before the subcommand too, by moving them
    /// behind it, then runs the parsed command. Parse errors exit 64 (`EX_USAGE`).
    static func main() {
        let arguments = GlobalOptions.movingLeadingOptions(
            Array(CommandLine.arguments.dropFirst()),
            subcommands: Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        )
        if arguments.isEmpty {
            // A subcommand is required: show the usage on stderr, exit 64 (EX_USAGE).
            FileHandle.standardError.write(Data((helpMessage() + "\n").utf8))
            exit(withError: ExitCode(ExitStatus.usage))
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

import ArgumentParser
import Foundation

/// Options every subcommand accepts: where the service lives, output style, timeout and
/// optional non-default admin credentials (always files; keys never travel on argv).
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "svcd's data directory, holding endpoints.json and keys/ (env SVC_DATA_DIR; default ./svc-data).")
    var dataDir: String?

    @Flag(name: .long, help: "Print the result as JSON on stdout (for `call`: the whole reply envelope).")
    var json = false

    @Option(name: .long, help: "Seconds to wait for an answer.")
    var timeout: Double = 5

    @Option(name: .long, help: "File with the client's CURVE public key (default: svcd's local admin key).")
    var publicKeyFile: String?

    @Option(name: .long, help: "File with the client's CURVE secret key (default: svcd's local admin key).")
    var secretKeyFile: String?

    func validate() throws {
        guard timeout > 0, timeout <= 86_400, timeout.isFinite else {
            throw ValidationError("--timeout must be a number of seconds greater than 0 (at most 86400)")
        }
        guard (publicKeyFile == nil) == (secretKeyFile == nil) else {
            throw ValidationError("--public-key-file and --secret-key-file must be given together")
        }
    }

    /// The data directory as an absolute path: `--data-dir`, else `SVC_DATA_DIR`, else `./svc-data`.
    var dataDirectory: String {
        let chosen = dataDir ?? ProcessInfo.processInfo.environment["SVC_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "./svc-data"
        return absolutePath(chosen)
    }

    /// The timeout in whole milliseconds (at least 1).
    var timeoutMilliseconds: Int {
        max(1, Int((timeout * 1000).rounded()))
    }

    /// Options taking a value, and flags, that may appear before the subcommand.
    private static let valueOptions: Set<String> = ["--data-dir", "--timeout", "--public-key-file", "--secret-key-file"]
    private static let flagOptions: Set<String> = ["--json"]

    /// Moves global options that precede the subcommand to just after it, so
    /// `svcctl --json status` parses like `svcctl status --json`. Anything else is left alone
    /// (an unknown leading option still fails as a usage error).
    static func movingLeadingOptions(_ arguments: [String], subcommands: Set<String>) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flagOptions.contains(argument) {
                leading.append(argument)
                index += 1
            } else if valueOptions.contains(name) {
                leading.append(argument)
                if !argument.contains("="), index + 1 < arguments.count {
                    leading.append(arguments[index + 1])
                    index += 2
                } else {
                    index += 1
                }
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count, subcommands.contains(arguments[index]) else {
            return arguments
        }
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }
}

/// Resolves `path` against the current working directory (and standardises it).
func absolutePath(_ path: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL.path }
    let cwd = FileManager.default.currentDirectoryPath
    return URL(fileURLWithPath: cwd).appendingPathComponent(expanded).standardizedFileURL.path
}

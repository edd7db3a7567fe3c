import ArgumentParser
import Foundation

/// The options of a command that talks to one svcd: its data directory, plus the
/// ``CommonOptions``. `--data-dir` may be given once (only `stress` and `events` take several instances).
struct GlobalOptions: ParsableArguments {
    // An array, so that a repeated --data-dir is seen and refused instead of the last one
    // silently winning.
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "svcd's data directory, holding endpoints.json and keys/ (env SVC_DATA_DIR; default ./svc-data). Once: only `stress` and `events` take several.",
            valueName: "data-dir"))
    var dataDirs: [String] = []

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard dataDirs.count <= 1 else {
            throw ValidationError("--data-dir names the one svcd this command talks to; give it once (only `stress` and `events` take several instances)")
        }
    }

    /// The data directory as an absolute path: `--data-dir`, else `SVC_DATA_DIR`, else `./svc-data`.
    var dataDirectory: String {
        let chosen = dataDirs.last ?? ProcessInfo.processInfo.environment["SVC_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "./svc-data"
        return absolutePath(chosen)
    }

    /// `--json`.
    var json: Bool { common.json }
    /// `--timeout`, in seconds.
    var timeout: Double { common.timeout }
    /// The timeout in whole milliseconds (at least 1).
    var timeoutMilliseconds: Int { common.timeoutMilliseconds }
    /// `--public-key-file`.
    var publicKeyFile: String? { common.publicKeyFile }
    /// `--secret-key-file`.
    var secretKeyFile: String? { common.secretKeyFile }

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

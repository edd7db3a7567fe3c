import ArgumentParser
import WireContract

/// `svcctl backup PATH`: svcd writes a consistent copy of its SQLite store to PATH (a relative
/// PATH is resolved against svcctl's working directory and sent absolute).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of svcd's store to PATH."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Where to write the backup; relative paths are resolved against the current directory.")
    var path: String

    func validate() throws {
        guard !path.isEmpty else { throw ValidationError("PATH must not be empty") }
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let target = absolutePath(path)
            let result = try AdminClient(options: options).call(op: .backup, params: [AdminOperation.Parameter.path: .string(target)])
            emit(result, options: options) { result in
                keyValueLines([AdminOperation.Result.path, AdminOperation.Result.bytes].map { ($0, plainText(result[$0])) })
            }
        }
    }
}

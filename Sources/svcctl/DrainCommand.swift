import ArgumentParser
import WireContract

/// `svcctl drain`: svcd stops taking new use-case requests (answers `unavailable`) but keeps running.
struct DrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Stop taking new use-case requests (they are answered `unavailable`); see `resume`."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .drain)
            emit(result, options: options) { keyValueLines([(AdminOperation.Result.state, plainText($0[AdminOperation.Result.state]))]) }
        }
    }
}

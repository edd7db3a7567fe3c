import ArgumentParser
import WireContract

/// `svcctl resume`: svcd takes use-case requests again after `drain`.
struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Take use-case requests again after `drain`."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .resume)
            emit(result, options: options) { keyValueLines([(AdminOperation.Result.state, plainText($0[AdminOperation.Result.state]))]) }
        }
    }
}

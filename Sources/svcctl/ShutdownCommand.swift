import ArgumentParser
import WireContract

/// `svcctl shutdown`: svcd answers the requests in flight, flushes the store and exits 0.
struct ShutdownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shutdown",
        abstract: "Stop svcd cleanly: answer requests in flight, flush the store, exit."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let client = try AdminClient(options: options)
            let result = try client.call(op: .shutdown)
            emit(result, options: options) { result in
                keyValueLines([
                    (AdminOperation.Result.state, plainText(result[AdminOperation.Result.state])), (EndpointsFile.Key.pid, String(client.endpoints.pid)),
                ])
            }
        }
    }
}

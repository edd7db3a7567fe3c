import ArgumentParser
import WireContract
import WireJSON

/// `svcctl endpoints`: the admin, event and use-case addresses, as svcd reports them.
struct EndpointsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "endpoints",
        abstract: "List the admin, event and use-case endpoint addresses."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .endpoints)
            emit(result, options: options, human: Self.render)
        }
    }

    /// A two-column table: endpoint name, address; the admin endpoint first, then the live event
    /// stream and the event log, then the use cases.
    static func render(_ result: JSONValue) -> String {
        var rows: [[String]] = []
        for key in [EndpointsFile.Key.admin, EndpointsFile.Key.events, EndpointsFile.Key.eventLog] {
            if let address = result[key] { rows.append([key, plainText(address)]) }
        }
        for member in result[EndpointsFile.Key.useCases]?.objectValue ?? JSONObject() {
            rows.append([member.key, plainText(member.value)])
        }
        return renderTable(headers: ["ENDPOINT", "ADDRESS"], rows: rows)
    }
}

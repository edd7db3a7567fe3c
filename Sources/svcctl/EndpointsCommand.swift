import ArgumentParser
import WireContract
import WireJSON

/// `svcctl endpoints`: the admin and use-case addresses, as svcd reports them.
struct EndpointsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "endpoints",
        abstract: "List the admin and use-case endpoint addresses."
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let result = try AdminClient(options: options).call(op: .endpoints)
            emit(result, options: options, human: Self.render)
        }
    }

    /// A two-column table: endpoint name, address; the admin endpoint first.
    static func render(_ result: JSONValue) -> String {
        var rows: [[String]] = []
        if let admin = result[EndpointsFile.Key.admin] { rows.append([EndpointsFile.Key.admin, plainText(admin)]) }
        for member in result[EndpointsFile.Key.useCases]?.objectValue ?? JSONObject() {
            rows.append([member.key, plainText(member.value)])
        }
        return renderTable(headers: ["ENDPOINT", "ADDRESS"], rows: rows)
    }
}

import Foundation
import Testing
import SvcdTestSupport
import WireJSON

/// Runs `script` (Python, importing the Prometheus project's own parser,
/// `prometheus_client.parser`) on the exposition `text`, given as the path in `sys.argv[1]`,
/// and returns the JSON the script prints. Fails the test if the script fails.
func parsedByPrometheusClient(_ text: String, script: String) async throws -> JSONValue {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString).txt")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let outcome = try await runTool("/usr/bin/env", ["python3", "-c", script, file.path], timeout: 60)
    #expect(outcome.status == 0, "prometheus_client could not parse the text: \(outcome.stderr)")
    return try JSONParser.parse(Array(outcome.stdout.utf8))
}

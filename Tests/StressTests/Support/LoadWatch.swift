import SvcdTestSupport
import Testing
import WireJSON

/// Waits until the svcd behind `dataDirectory` has answered at least `requests` GetRestaurant
/// requests (so a stress load is on), asking `svcctl stats` every 100 ms for up to a minute.
func waitForLoad(onDataDirectory dataDirectory: String, requests: Int) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while clock.now < deadline {
        let stats = try await runTool(try ExecutableLocator.svcctl(), ["stats", "--data-dir", dataDirectory, "--json"], timeout: 10)
        let seen = (try? JSONParser.parse(stats.stdout))?["useCases"]?["GetRestaurant"]?["requests"]?.intValue ?? 0
        if seen >= requests { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("the stress load never reached \(requests) GetRestaurant requests")
}

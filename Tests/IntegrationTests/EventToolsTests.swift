import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

/// The tools a person or a script follows events with, run as they would be: `svcctl events`
/// (lines for people, JSON lines, types, --after, --follow) and `Docs/examples/events.py` (the
/// documented pyzmq subscriber that keeps its last seq in a file and resumes from it).
@Suite struct EventToolsTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private func register(_ endpoints: EndpointsFile, _ count: Int) async throws -> [String] {
        var ids: [String] = []
        for _ in 0..<count {
            let reply = try await call(try endpoints.address(.registerUser), request(id: "r", params: ["name": "Tool", "email": .string(uniqueEmail("tools"))]))
            ids.append(try #require(reply.result?["user"]?["id"]?.stringValue, "\(reply)"))
        }
        return ids
    }

    private func svcctl(_ arguments: [String], timeout: Double = 30) async throws -> ToolOutcome {
        try await runTool(try ExecutableLocator.svcctl(), arguments, timeout: timeout)
    }

    /// Waits until svcd counts a live-stream subscriber (one has connected), polling its stats.
    private func waitForSubscriber(_ child: SvcdChild) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while ContinuousClock.now < deadline {
            let stats = try await svcctl(["stats", "--json", "--data-dir", child.dataDirectory])
            if (try? JSONParser.parse(stats.stdout))?["events"]?["subscribers"]?.intValue ?? 0 > 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no subscriber connected within 20 s")
    }

    @Test func svcctlEventsPrintsTheLogForPeopleAndAsJSONLines() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let users = try await register(endpoints, 3)
            let favorite = try await call(try endpoints.address(.saveFavoriteRestaurant), request(id: "f", params: ["userId": .string(users[0]), "restaurantId": "r-000001"]))
            #expect(favorite.ok == true)

            let people = try await svcctl(["events", "--data-dir", child.dataDirectory])
            #expect(people.status == 0, "\(people.stderr)")
            let lines = people.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(people.stdout)")
            #expect(lines.first?.hasPrefix("      1  ") == true && lines.first?.contains("UserRegistered") == true && lines.first?.contains(users[0]) == true, "\(people.stdout)")
            #expect(lines.last?.contains("FavoriteSaved") == true && lines.last?.contains("saved r-000001; 1 favourites") == true, "\(people.stdout)")

            let scripts = try await svcctl(["events", "--json", "--after", "1", "--type", "UserRegistered", "--data-dir", child.dataDirectory])
            #expect(scripts.status == 0, "\(scripts.stderr)")
            let events = try scripts.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(events.map { $0["seq"]?.intValue } == [2, 3])
            #expect(events.map { $0["key"]?.stringValue } == [users[1], users[2]])

            let badType = try await svcctl(["events", "--type", "Nope", "--data-dir", child.dataDirectory])
            #expect(badType.status == 64 && badType.stderr.contains("not an event type"), "\(badType)")
        }
    }

    /// `--follow` prints what is in the log and then each new event as it is written.
    @Test func svcctlEventsFollowPrintsNewEventsAsTheyCome() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let first = try await register(endpoints, 2)
            // It runs until stopped: the timeout ends it once the later events are expected in.
            async let following = svcctl(["events", "--follow", "--json", "--data-dir", child.dataDirectory], timeout: 6)
            try await waitForSubscriber(child)
            let later = try await register(endpoints, 2)
            let outcome = try await following
            let events = try outcome.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(events.map { $0["seq"]?.intValue } == [1, 2, 3, 4], "\(outcome.stdout)\n\(outcome.stderr)")
            #expect(events.map { $0["key"]?.stringValue } == (first + later).map(Optional.some))
        }
    }

    /// The example subscriber applies each event once, in order, keeps its last seq in a file and,
    /// started again, resumes after it: from the log for what was written while it was away, live
    /// for what comes while it runs.
    @Test func theExampleSubscriberResumesFromItsLastSeqWithoutRepeatsOrGaps() async throws {
        try await withSvcd(seed: false) { child in
            let endpoints = try await child.endpoints()
            let script = Self.root + "/Docs/examples/events.py"
            let state = child.dataDirectory + "/../example.seq"
            func run(stopAt: Int) async throws -> ToolOutcome {
                try await runTool("/usr/bin/env", ["python3", script, "--data-dir", child.dataDirectory, "--state", state, "--stop-at", String(stopAt)], timeout: 60)
            }
            let firstUsers = try await register(endpoints, 3)
            let first = try await run(stopAt: 3)
            #expect(first.status == 0, "\(first.stderr)")
            let firstEvents = try first.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(firstEvents.map { $0["seq"]?.intValue } == [1, 2, 3])
            #expect(firstEvents.map { $0["key"]?.stringValue } == firstUsers.map(Optional.some))
            #expect(try String(contentsOfFile: state, encoding: .utf8) == "3\n")

            // Two written while it is away, two while it runs again.
            let away = try await register(endpoints, 2)
            async let second = run(stopAt: 7)
            try await waitForSubscriber(child)
            let live = try await register(endpoints, 2)
            let resumed = try await second
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let resumedEvents = try resumed.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(resumedEvents.map { $0["seq"]?.intValue } == [4, 5, 6, 7], "\(resumed.stdout)")
            #expect(resumedEvents.map { $0["key"]?.stringValue } == (away + live).map(Optional.some))
            #expect(try String(contentsOfFile: state, encoding: .utf8) == "7\n")
        }
    }
}

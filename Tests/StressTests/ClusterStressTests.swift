import Foundation
import SvcdTestSupport
import Testing
import WireJSON

#if canImport(Glibc)
import Glibc
#endif

extension StressSuite {
    /// `svcctl stress` over several instances: the clients spread over them, move off an instance
    /// that is killed or drains, and the run still checks every invariant cleanly; instances that
    /// do not share a store are refused, one that is not running is skipped; the usage errors.
    ///
    /// The second instance is a ``RelayInstance`` in front of the first svcd, because the
    /// invariants only mean something over one shared store and two svcd processes cannot share
    /// one today (each keeps its own copies of users and restaurants). Killing the relay under
    /// load is what killing an instance of a real cluster does to its clients: connections lost,
    /// requests in flight (some executed, their replies lost) with an unknown outcome.
    @Suite
    struct ClusterStressTests {
        /// Clients in the runs below; client i goes to instance i mod 2, so half start on each.
        private static let clients = 16

        /// Requests a second in the runs where one instance fails. Once it is gone the survivor
        /// carries the whole load, and must answer every request within the 5 s timeout for the
        /// test to hold; a ThreadSanitizer build of svcd, on two cores shared with a TSan build
        /// of svcctl and the relay, fell further behind a 400/s load every second (p50 2-3 s and
        /// over 5 s at the end of a 6 s run). 200/s is within its reach, and the failover
        /// questions asked here do not depend on the rate.
        private static let rate = "200"

        private func svcctl(_ arguments: [String], timeout: Double = 120) async throws -> ToolOutcome {
            try await runTool(try ExecutableLocator.svcctl(), arguments, timeout: timeout)
        }

        /// Runs `svcctl stress --json --max-refused-share 1 <arguments>` and parses its report.
        /// Refusals and timeouts around a kill or a drain are what these tests provoke, not a load
        /// beyond the instances: any share of them may still be clean.
        private func stress(_ arguments: [String]) async throws -> (outcome: ToolOutcome, report: JSONValue) {
            let outcome = try await svcctl(["stress", "--json", "--max-refused-share", "1"] + arguments)
            let report = try #require(
                try? JSONParser.parse(outcome.stdout),
                "no JSON report (exit \(outcome.status.map(String.init) ?? "none: killed")); stdout:\n\(outcome.stdout.prefix(2000))\nstderr:\n\(outcome.stderr)")
            return (outcome, report)
        }

        /// A temporary directory, removed after `body`.
        private func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-stress-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            return try await body(directory)
        }

        /// Runs `svcctl stress` over svcd (instance 0) and a relay in front of it (instance 1);
        /// once the load is on, applies `fault` to the relay and returns the run's outcome, its
        /// report and what `fault` returned. Stops every process it started.
        private func stressOverAnInstanceAndARelay<Fault: Sendable>(
            _ stressArguments: [String], fault: (RelayInstance) async throws -> Fault
        ) async throws -> (outcome: ToolOutcome, report: JSONValue, fault: Fault) {
            try await withSvcd(seed: true) { svcd in
                _ = try await svcd.endpoints()
                return try await withTemporaryDirectory { directory in
                    let relay = try await RelayInstance.launch(fronting: svcd, dataDirectory: directory + "/relay")
                    do {
                        async let run = stress(["--data-dir", svcd.dataDirectory, "--data-dir", relay.dataDirectory] + stressArguments)
                        // About 11 GetRestaurant requests a second at 200 requests/s: the load is
                        // on about a second and a half in, leaving most of the run for the fault.
                        try await waitForLoad(onDataDirectory: svcd.dataDirectory, requests: 15)
                        let faultResult = try await fault(relay)
                        let (outcome, report) = try await run
                        await relay.stop()
                        return (outcome, report, faultResult)
                    } catch {
                        await relay.stop()
                        throw error
                    }
                }
            }
        }

        /// The invariants hold, nothing unexpected happened, and the counts add up: every request
        /// was answered or timed out, and the instances' shares sum to the whole.
        private func expectCleanAndConsistent(_ outcome: ToolOutcome, _ report: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)\nreport:\n\(outcome.stdout.prefix(6000))", sourceLocation: sourceLocation)
            #expect(report["clean"] == true, sourceLocation: sourceLocation)
            #expect(report["settings"]?["transport"]?.stringValue == "zmtp", "plain TCP: the load threads speak ZMTP", sourceLocation: sourceLocation)
            #expect(report["violations"]?.intValue == 0, "\(report["invariants"]?.description ?? "no invariants")", sourceLocation: sourceLocation)
            let load = try #require(report["load"], sourceLocation: sourceLocation)
            #expect(load["unexpectedErrors"]?.intValue == 0, sourceLocation: sourceLocation)
            let sent = try #require(load["sent"]?.intValue, sourceLocation: sourceLocation)
            #expect(load["answered"]?.intValue.map { $0 + (load["timeouts"]?.intValue ?? 0) } == sent, sourceLocation: sourceLocation)
            let instances = try #require(report["instances"]?.arrayValue, sourceLocation: sourceLocation)
            #expect(instances.compactMap { $0["sent"]?.intValue }.reduce(0, +) == sent, sourceLocation: sourceLocation)
            #expect(instances.compactMap { $0["timeouts"]?.intValue }.reduce(0, +) == load["timeouts"]?.intValue, sourceLocation: sourceLocation)
            #expect(instances.compactMap { $0["clientsMovedAway"]?.intValue }.reduce(0, +) == load["failovers"]?.intValue, sourceLocation: sourceLocation)
        }

        /// The report's rows of svcd (instance 0) and of the relay (instance 1).
        private func instanceAndRelay(_ report: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws -> (svcd: JSONValue, relay: JSONValue) {
            let instances = try #require(report["instances"]?.arrayValue, sourceLocation: sourceLocation)
            try #require(instances.count == 2, sourceLocation: sourceLocation)
            return (instances[0], instances[1])
        }

        /// Kill -9 one of two instances under load, right after it swallowed the replies to some
        /// writes it had passed on: its clients move to the survivor, its unanswered requests are
        /// reported as its timeouts and resent with their keys, and every invariant still holds.
        @Test(.enabled("needs python3 with pyzmq") { try await RelayInstance.isAvailable() })
        func stressMovesTheClientsOfAKilledInstanceToTheSurvivorAndStaysClean() async throws {
            let (outcome, report, swallowed) = try await stressOverAnInstanceAndARelay(
                ["--duration", "6s", "--rate", Self.rate, "--clients", String(Self.clients), "--seed", "41", "--timeout", "5"]
            ) { relay in
                relay.send(signal: SIGUSR1)
                let status = try await relay.waitForStatus(timeout: 30) {
                    ($0["dropped"]?.intValue ?? 0) >= 20 && ($0["droppedWrites"]?.intValue ?? 0) >= 3
                }
                relay.send(signal: SIGKILL)
                #expect(await relay.waitForExit(timeout: 10))
                // What it swallowed up to the kill (it may have swallowed a little more since).
                return (replies: status?["dropped"]?.intValue ?? 0, writes: status?["droppedWrites"]?.intValue ?? 0)
            }
            try expectCleanAndConsistent(outcome, report)
            #expect(swallowed.replies >= 20 && swallowed.writes >= 3, "the relay swallowed \(swallowed) before the deadline")
            let (survivor, killed) = try instanceAndRelay(report)
            #expect(survivor["clients"]?.intValue == Self.clients / 2)
            #expect(killed["clients"]?.intValue == Self.clients / 2)
            #expect((survivor["sent"]?.intValue ?? 0) > 0)
            #expect((killed["sent"]?.intValue ?? 0) > 0)
            // Every client of the killed instance moved, once; none of the survivor's did.
            #expect(killed["clientsMovedAway"]?.intValue == Self.clients / 2)
            #expect(survivor["clientsMovedAway"]?.intValue == 0)
            #expect(killed["down"]?.stringValue != nil)
            #expect(survivor["down"] == .null)
            #expect(survivor["timeouts"]?.intValue == 0)
            #expect((killed["timeouts"]?.intValue ?? 0) >= swallowed.replies, "every swallowed reply left its request unanswered")

            let unknown = try #require(report["unknownOutcomes"])
            #expect(unknown["enabled"] == true)
            let unknownAfterLoad = try #require(unknown["unknownAfterLoad"]?.intValue)
            #expect(unknownAfterLoad >= swallowed.writes, "each write whose reply was swallowed is unknown")
            #expect(unknown["resent"]?.intValue == unknownAfterLoad)
            #expect(unknown["unexpectedErrors"]?.intValue == 0)
            #expect((unknown["resolved"]?.intValue ?? -1) + (unknown["stillUnknown"]?.intValue ?? -1) == unknownAfterLoad)
            if unknown["idempotencyKeysHonoured"] == false {
                // Without bound keys a resend is a new write, and the original stays unknown.
                #expect(unknown["resolved"]?.intValue == 0)
                #expect((unknown["newWritesAcknowledged"]?.intValue ?? 0) + (unknown["newWritesRefused"]?.intValue ?? 0) <= unknownAfterLoad)
            } else {
                #expect(unknown["newWritesAcknowledged"]?.intValue == 0)
            }
        }

        /// One of two instances answers writes `internal` with `"outcome": "unknown"` (they took
        /// effect; the commit was not confirmed), as svcd does when its database does not confirm
        /// a commit in time: those are unknown outcomes, not unexpected errors, resolved by their
        /// keys after the load as taking effect, and the run stays clean.
        @Test(.enabled("needs python3 with pyzmq") { try await RelayInstance.isAvailable() })
        func writesAnsweredWithAnUnknownOutcomeAreResolvedNotUnexpected() async throws {
            let (outcome, report, unconfirmed) = try await stressOverAnInstanceAndARelay(
                ["--duration", "5s", "--rate", Self.rate, "--clients", String(Self.clients), "--seed", "43", "--timeout", "5"]
            ) { relay in
                relay.send(signal: SIGHUP)
                let status = try await relay.waitForStatus(timeout: 30) { ($0["unconfirmed"]?.intValue ?? 0) >= 5 }
                return status?["unconfirmed"]?.intValue ?? 0
            }
            try expectCleanAndConsistent(outcome, report)
            #expect(unconfirmed >= 5)
            let (direct, relayed) = try instanceAndRelay(report)
            let answeredUnknown = try #require(relayed["outcomeUnknown"]?.intValue)
            #expect(answeredUnknown >= unconfirmed, "the relay answered \(unconfirmed) writes so before the deadline")
            #expect(direct["outcomeUnknown"]?.intValue == 0)
            #expect(report["load"]?["outcomeUnknown"]?.intValue == answeredUnknown)
            #expect(relayed["clientsMovedAway"]?.intValue == 0, "an unknown outcome is no reason to leave an instance")
            #expect(report["load"]?["timeouts"]?.intValue == 0)
            let unknown = try #require(report["unknownOutcomes"])
            #expect(unknown["unknownAfterLoad"]?.intValue == answeredUnknown)
            #expect(unknown["resolved"]?.intValue == answeredUnknown, "\(unknown)")
            // They reached svcd: each took effect (its resend got the first result back) or was
            // refused there (the cap, the stock, a taken email: a refusal binds nothing).
            #expect((unknown["tookEffect"]?.intValue ?? 0) + (unknown["noEffect"]?.intValue ?? 0) == answeredUnknown, "\(unknown)")
            #expect((unknown["tookEffect"]?.intValue ?? 0) > 0, "\(unknown)")
            #expect(unknown["unexpectedErrors"]?.intValue == 0)
        }

        /// One of two instances drains under load (answers `unavailable`): the first `unavailable`
        /// a load thread reads moves that thread's clients on it to the other, each exactly once,
        /// nothing is left unknown, all invariants hold.
        @Test(.enabled("needs python3 with pyzmq") { try await RelayInstance.isAvailable() })
        func stressMovesTheClientsOfADrainingInstanceAndStaysClean() async throws {
            let (outcome, report, drained) = try await stressOverAnInstanceAndARelay(
                ["--duration", "5s", "--rate", Self.rate, "--clients", String(Self.clients), "--seed", "42", "--timeout", "5"]
            ) { relay in
                relay.send(signal: SIGUSR2)
                let status = try await relay.waitForStatus(timeout: 30) { ($0["drained"]?.intValue ?? 0) >= 1 }
                return status?["drained"]?.intValue ?? 0
            }
            try expectCleanAndConsistent(outcome, report)
            #expect(drained >= 1)
            let (other, draining) = try instanceAndRelay(report)
            #expect(draining["clientsMovedAway"]?.intValue == Self.clients / 2)
            #expect(draining["down"] == "answered unavailable")
            #expect((draining["transientRefusals"]?.intValue ?? 0) >= 1, "clients moved at an unavailable")
            #expect(other["clientsMovedAway"]?.intValue == 0)
            #expect(other["transientRefusals"]?.intValue == 0)
            #expect(report["load"]?["timeouts"]?.intValue == 0)
            #expect(report["unknownOutcomes"]?["unknownAfterLoad"]?.intValue == 0)
        }

        /// Two svcd processes with separate stores are not one cluster: the run stops before any
        /// load (exit 64) and names the instance that does not know the first one's data.
        @Test func stressRefusesInstancesThatDoNotShareAStore() async throws {
            try await withSvcd(seed: true) { first in
                try await withSvcd(seed: true) { second in
                    _ = try await first.endpoints()
                    _ = try await second.endpoints()
                    let outcome = try await svcctl([
                        "stress", "--data-dir", first.dataDirectory, "--data-dir", second.dataDirectory, "--duration", "2s", "--json",
                    ])
                    #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
                    #expect(outcome.stdout.isEmpty)
                    #expect(outcome.stderr.contains("do not share one store"))
                    #expect(outcome.stderr.contains("\(second.dataDirectory) does not know user"))
                    // No load reached either: only the probe's few calls.
                    let stats = try await svcctl(["stats", "--data-dir", second.dataDirectory, "--json"], timeout: 10)
                    let answered = (try? JSONParser.parse(stats.stdout))?["useCases"]?.objectValue?.reduce(0) { $0 + ($1.value["requests"]?.intValue ?? 0) }
                    #expect(answered == 1, "the second instance answered only the probe's GetUserProfile")
                }
            }
        }

        /// A cluster file naming a running instance (by a path relative to the file) and one that
        /// is not running: the run goes on with the one, whose share is everything; the other's
        /// clients move at the start. `--no-resolve` is reported.
        @Test func stressOverAClusterFileSkipsAnInstanceThatIsNotRunning() async throws {
            try await withSvcd(seed: true) { svcd in
                _ = try await svcd.endpoints()
                let directory = URL(fileURLWithPath: svcd.dataDirectory).deletingLastPathComponent()
                let clusterFile = directory.appendingPathComponent("cluster.txt").path
                let text = "# test cluster\n\(URL(fileURLWithPath: svcd.dataDirectory).lastPathComponent)\n\n  absent/endpoints.json  \n"
                try text.write(toFile: clusterFile, atomically: true, encoding: .utf8)
                let (outcome, report) = try await stress([
                    "--cluster", clusterFile, "--duration", "2s", "--rate", "200", "--clients", "6", "--seed", "43", "--no-resolve",
                ])
                try expectCleanAndConsistent(outcome, report)
                #expect(report["settings"]?["instances"]?.intValue == 2)
                #expect(report["settings"]?["resolve"] == false)
                let instances = try #require(report["instances"]?.arrayValue)
                try #require(instances.count == 2)
                #expect(instances[0]["name"]?.stringValue == svcd.dataDirectory)
                #expect(instances[0]["sent"]?.intValue == report["load"]?["sent"]?.intValue)
                #expect(instances[0]["clientsMovedAway"]?.intValue == 0)
                #expect(instances[1]["name"]?.stringValue == directory.appendingPathComponent("absent").path)
                #expect(instances[1]["pid"] == .null)
                #expect(instances[1]["sent"]?.intValue == 0)
                #expect(instances[1]["clientsMovedAway"]?.intValue == 3)
                #expect(instances[1]["down"]?.stringValue?.hasPrefix("not running at the start") == true)
                #expect(report["unknownOutcomes"]?["enabled"] == false)
                #expect(report["unknownOutcomes"]?["resent"]?.intValue == 0)
            }
        }

        /// What the usage errors and an unreachable cluster exit with, before anything is sent.
        @Test func clusterUsageErrorsAndUnreachableClusters() async throws {
            try await withTemporaryDirectory { directory in
                let empty = directory + "/empty.txt"
                try "# no instance\n\n".write(toFile: empty, atomically: true, encoding: .utf8)
                let dead = directory + "/dead.txt"
                try "one\ntwo/endpoints.json\n".write(toFile: dead, atomically: true, encoding: .utf8)
                let cases: [(arguments: [String], status: Int32, says: String)] = [
                    (["stress", "--cluster", directory + "/missing.txt"], 64, "cannot read the cluster file"),
                    (["stress", "--cluster", empty], 64, "lists no instance"),
                    (["stress", "--cluster", dead, "--duration", "1s"], 69, "no instance is running"),
                    (["stress", "--data-dir", directory + "/a", "--data-dir", directory + "/b", "--duration", "1s"], 69, "no instance is running"),
                    (["status", "--data-dir", directory + "/a", "--data-dir", directory + "/b"], 64, "give it once"),
                    (["--data-dir", directory + "/a", "stats", "--data-dir", directory + "/b"], 64, "give it once"),
                    (["call", "GetRestaurant", "{}", "--data-dir", directory + "/a", "--data-dir", directory + "/b"], 64, "give it once"),
                ]
                for (arguments, status, says) in cases {
                    let outcome = try await svcctl(arguments, timeout: 30)
                    #expect(outcome.status == status, "\(arguments): stderr \(outcome.stderr)")
                    #expect(outcome.stderr.contains(says), "\(arguments): stderr \(outcome.stderr)")
                    #expect(outcome.stdout.isEmpty, "\(arguments)")
                }
            }
        }
    }
}

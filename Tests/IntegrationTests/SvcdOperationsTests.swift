import Foundation
import Testing
import WireContract
import SvcdTestSupport
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What an operator meets around a running svcd: one svcd per data directory, private files,
/// start-up failures that say what failed with a documented exit status, a hung svcd told apart
/// from a stopped one, and logs and files that stay the size they should.
@Suite struct SvcdOperationsTests {
    @Test func aSecondSvcdOnTheSameDataDirectoryExitsAtOnceAndTheFirstKeepsServing() async throws {
        try await withSvcd(seed: false) { first in
            let before = try await first.endpoints()
            let second = try await runTool(try ExecutableLocator.svcd(), ["--port-base", "0", "--data-dir", first.dataDirectory], timeout: 15)
            #expect(second.status == 73, "a second svcd on a locked data directory exits 73: \(second)")
            #expect(second.stderr.contains("in use by another svcd (pid \(first.pid))"), "\(second.stderr)")
            let after = try await first.endpoints()
            #expect(after.pid == before.pid && after.useCases == before.useCases, "the second svcd must not touch endpoints.json")
            let reply = try await call(try after.address(.getRestaurant), request(params: ["restaurantId": "r-000001"]))
            #expect(reply.code == "not_found", "the first svcd still answers: \(reply)")
            let status = try await runTool(try ExecutableLocator.svcctl(), ["status", "--data-dir", first.dataDirectory], timeout: 15)
            #expect(status.status == 0, "\(status)")
        }
    }

    @Test func theDataDirectoryIsTheServiceUsersAloneAndAnOlderLooserOneIsTightened() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("integration-modes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let directory = base + "/data"
        // As an older svcd left it: a world-readable directory and store.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let first = try await SvcdChild.launch(seed: true, dataDirectory: directory)
        _ = try await first.endpoints()
        await first.stop()
        #expect(chmod(directory + "/store.sqlite", 0o644) == 0)
        #expect(chmod(directory, 0o755) == 0)

        let child = try await SvcdChild.launch(seed: false, dataDirectory: directory)
        _ = try await child.endpoints()
        #expect(try mode(directory) == 0o700, "data directory")
        for file in ["store.sqlite", "store.sqlite-wal", "store.sqlite-shm", "endpoints.json", "svcd.lock"] {
            let path = directory + "/" + file
            guard FileManager.default.fileExists(atPath: path) else { continue }
            #expect(try mode(path) == 0o600, "\(file) must be readable by svcd's user only")
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/store.sqlite"))
        await child.stop()
    }

    /// The first use case's port, and the last one's (endpoints bound before it are running and
    /// are torn down: that is a consequence, not a second failure, and is not logged as one).
    @Test(arguments: [UseCaseName.allCases.first!, UseCaseName.allCases.last!])
    func aPortInUseIsNamedWithItsEndpointAndExitsSeventyOne(_ clashing: UseCaseName) async throws {
        // A base whose every port is free but the clashing one, which this test holds: below the
        // ephemeral range and the tests' PostgreSQL ports (15000 and up), so no other socket
        // takes one of svcd's ports first and is named instead.
        var found: (base: Int, held: LoopbackSocket)?
        for base in stride(from: 10_000 + Int.random(in: 0..<40) * 100, to: 14_900, by: 100) where found == nil {
            var probes: [LoopbackSocket] = []
            var free = true
            for offset in PortLayout.offsets {
                guard let probe = try LoopbackSocket.refusing(port: base + offset) else {
                    free = false
                    break
                }
                probes.append(probe)
            }
            let clashingIndex = PortLayout.offsets.firstIndex(of: clashing.portOffset)!
            for (index, probe) in probes.enumerated() where !(free && index == clashingIndex) { probe.close() }
            if free { found = (base, probes[clashingIndex]) }
        }
        let (portBase, held) = try #require(found, "no base between 10000 and 14900 with every port free")
        defer { held.close() }
        let port = try held.port
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-inuse-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await runTool(try ExecutableLocator.svcd(), ["--port-base", String(portBase), "--data-dir", directory], timeout: 15)
        #expect(outcome.status == 71, "\(outcome)")
        #expect(outcome.stderr.contains("cannot bind the \(clashing.rawValue) endpoint to tcp://127.0.0.1:\(port)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("EADDRINUSE"), "\(outcome.stderr)")
        let errors = outcome.stderr.split(separator: "\n").filter { $0.contains(" error ") || $0.contains(" critical ") }
        #expect(errors.count == 1, "one cause, logged once:\n\(errors.joined(separator: "\n"))")
        #expect(!FileManager.default.fileExists(atPath: directory + "/endpoints.json"))
    }

    @Test func aHungSvcdIsReportedAsNotAnsweringNotAsStopped() async throws {
        try await withSvcd(seed: false) { child in
            _ = try await child.endpoints()
            child.send(signal: SIGSTOP)
            defer { child.send(signal: SIGCONT) }
            let status = try await runTool(try ExecutableLocator.svcctl(), ["status", "--timeout", "1", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(status.status == 75, "a process that exists but does not answer exits 75: \(status)")
            #expect(status.stderr.contains("pid \(child.pid)") && status.stderr.contains("does not answer"), "\(status.stderr)")
        }
    }

    @Test func aBackupThatCannotBeWrittenSaysWhy() async throws {
        try await withSvcd(seed: false) { child in
            _ = try await child.endpoints()
            let outcome = try await runTool(try ExecutableLocator.svcctl(), ["backup", "/proc/svc-backup.sqlite", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(outcome.status == 1, "\(outcome)")
            #expect(outcome.stderr.contains("cannot write the backup to /proc/svc-backup.sqlite:"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("internal error"), "the cause, not a generic text: \(outcome.stderr)")
        }
    }

    @Test func aCallWhileDrainingExitsSixtyNine() async throws {
        try await withSvcd(seed: true) { child in
            _ = try await child.endpoints()
            let svcctl = try ExecutableLocator.svcctl()
            let drain = try await runTool(svcctl, ["drain", "--data-dir", child.dataDirectory], timeout: 20)
            #expect(drain.status == 0, "\(drain)")
            let outcome = try await runTool(svcctl, ["call", "GetRestaurant", #"{"restaurantId":"r-000001"}"#, "--data-dir", child.dataDirectory], timeout: 20)
            #expect(outcome.status == 69, "\(outcome)")
            #expect(outcome.stderr.contains("unavailable"), "\(outcome.stderr)")
            let refused = try await runTool(svcctl, ["call", "GetRestaurant", #"{"restaurantId":"nope"}"#, "--data-dir", child.dataDirectory], timeout: 20)
            #expect(refused.status == 69, "draining answers every request unavailable: \(refused)")
            _ = try await runTool(svcctl, ["resume", "--data-dir", child.dataDirectory], timeout: 20)
            let missing = try await runTool(svcctl, ["call", "GetRestaurant", #"{"restaurantId":"nope"}"#, "--data-dir", child.dataDirectory], timeout: 20)
            #expect(missing.status == 1, "any other error the service answers exits 1: \(missing)")
        }
    }

    @Test func traceLevelLogsEveryAnsweredRequest() async throws {
        try await withSvcd(seed: false, arguments: ["--log-level", "trace"]) { child in
            let endpoints = try await child.endpoints()
            let reply = try await call(try endpoints.address(.getRestaurant), request(params: ["restaurantId": "r-404"]))
            #expect(reply.code == "not_found")
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(10))
            var logged = false
            while clock.now < deadline {
                let lines = child.stderrText.split(separator: "\n")
                if lines.contains(where: { $0.contains("request answered") && $0.contains("useCase=GetRestaurant") && $0.contains("outcome=not_found") }) {
                    logged = true
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(logged, "a trace line for the answered request: \(child.stderrText.suffix(2000))")
        }
    }

    @Test func afterSeedingTheWriteAheadLogIsSmall() async throws {
        try await withSvcd(seed: true) { child in
            _ = try await child.endpoints()
            let wal = child.dataDirectory + "/store.sqlite-wal"
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            #expect(size <= 4 * 1024 * 1024, "the -wal file after seeding: \(size) bytes")
        }
    }
}

private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}

import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// svcd on a data directory whose disk fills up (an 8 MiB tmpfs mounted by the test, filled with
/// a file): writes are answered `unavailable` saying storage is full, reads go on, `health` says
/// `full`, the log says so once per 5 s rather than once per request, and writes succeed again,
/// without a restart, once the file is removed. Needs root (mount); fails saying so without it.
@Suite(.serialized) struct StorageFullTests {
    @Test func aFullDiskRefusesWritesAsUnavailableKeepsReadsAndRecoversWhenSpaceReturns() async throws {
        try await withSmallDisk(size: "8m") { dataDirectory in
            // The data directory is the mount point: svcd's stderr goes next to it, off the full disk.
            let child = try await SvcdChild.launch(seed: false, dataDirectory: dataDirectory)
            do {
                let endpoints = try await child.endpoints()
                let register = try endpoints.address(.registerUser)
                let first = try await call(register, request(params: ["name": "Before", "email": .string(uniqueEmail("before"))]))
                let userId = try #require(first.result?["user"]?["id"]?.stringValue, "\(first)")

                let fill = dataDirectory + "/fill"
                try fillDisk(at: fill)
                let started = ContinuousClock.now
                let attempts = 20
                for index in 0..<attempts {
                    let reply = try await call(register, request(params: ["name": "Full", "email": .string(uniqueEmail("full-\(index)"))]))
                    #expect(reply.code == "unavailable", "write \(index) on a full disk: \(reply)")
                    #expect(reply.message?.contains("storage is full") == true, "\(reply)")
                }
                let refusingFor = ContinuousClock.now - started
                let read = try await call(try endpoints.address(.getUserProfile), request(params: ["userId": .string(userId)]))
                #expect(read.ok == true, "reads go on while the disk is full: \(read)")
                let unhealthy = try await runTool(try ExecutableLocator.svcctl(), ["health", "--json", "--data-dir", dataDirectory], timeout: 20)
                #expect(unhealthy.status == 2, "\(unhealthy)")
                #expect(try JSONParser.parse(Array(unhealthy.stdout.utf8))["checks"]?["store"]?.stringValue == AdminOperation.StoreCheck.full, "\(unhealthy.stdout)")

                let lines = child.stderrText.split(separator: "\n")
                let fullLines = lines.filter { $0.contains("storage is full") }.count
                let allowed = 1 + Int(refusingFor / .seconds(5))
                #expect((1...allowed).contains(fullLines), "\(attempts) refusals in \(refusingFor) logged \(fullLines) lines, at most one per 5 s")
                // swift-log's stream format: "<time> <level> <label>: …".
                #expect(!lines.contains { $0.split(separator: " ").dropFirst().first == "error" }, "no error line per refused request:\n\(child.stderrText)")

                try FileManager.default.removeItem(atPath: fill)
                let after = try await call(register, request(params: ["name": "After", "email": .string(uniqueEmail("after"))]))
                #expect(after.ok == true, "writes succeed again once space is freed, without a restart: \(after)")
                let healthy = try await runTool(try ExecutableLocator.svcctl(), ["health", "--json", "--data-dir", dataDirectory], timeout: 20)
                #expect(healthy.status == 0, "\(healthy)")
            } catch {
                await child.stop()
                throw error
            }
            await child.stop()
            #expect(child.exitStatus == 0, "\(child.stderrText)")
        }
    }

    /// The same on PostgreSQL: its database in a tablespace on a 12 MiB tmpfs that fills (SQLSTATE
    /// 53100 `disk_full`).
    @Test func aFullPostgresTablespaceRefusesWritesAsUnavailableAndRecovers() async throws {
        try await withPostgres(fsync: false) { server in
            try await withSmallDisk(size: "12m") { space in
                // The server runs as the cluster's user (postgres under root), which must own it.
                let owner = try await runTool("/bin/chown", [server.user, space], timeout: 30)
                try #require(owner.status == 0, "\(owner)")
                let name = "full_\(UUID().uuidString.prefix(8).lowercased())"
                _ = try await server.psql("CREATE TABLESPACE \(name) LOCATION '\(space)'", database: "postgres")
                _ = try await server.psql("CREATE DATABASE \(name) TABLESPACE \(name)", database: "postgres")

                let child = try await SvcdChild.launch(seed: false, arguments: ["--store", "postgres", "--database-url", server.url(database: name)])
                do {
                    let endpoints = try await child.endpoints()
                    let register = try endpoints.address(.registerUser)
                    let first = try await call(register, request(params: ["name": "Before", "email": .string(uniqueEmail("pg-before"))]))
                    let userId = try #require(first.result?["user"]?["id"]?.stringValue, "\(first)")
                    let fill = space + "/fill"
                    try fillDisk(at: fill)
                    // Rows fit in pages PostgreSQL has already allocated until one needs a new page.
                    var refused: Reply?
                    for index in 0..<2_000 {
                        let reply = try await call(register, request(params: ["name": "Full", "email": .string(uniqueEmail("pg-full-\(index)"))]))
                        if reply.ok == true { continue }
                        refused = reply
                        break
                    }
                    let refusal = try #require(refused, "no write was refused on a full tablespace")
                    #expect(refusal.code == "unavailable" && refusal.message?.contains("storage is full") == true, "\(refusal)")
                    let read = try await call(try endpoints.address(.getUserProfile), request(params: ["userId": .string(userId)]))
                    #expect(read.ok == true, "reads go on: \(read)")
                    let unhealthy = try await runTool(try ExecutableLocator.svcctl(), ["health", "--json", "--data-dir", child.dataDirectory], timeout: 20)
                    #expect(try JSONParser.parse(Array(unhealthy.stdout.utf8))["checks"]?["store"]?.stringValue == AdminOperation.StoreCheck.full, "\(unhealthy)")
                    #expect(child.stderrText.contains("SQLSTATE 53100"), "\(child.stderrText)")

                    try FileManager.default.removeItem(atPath: fill)
                    let after = try await call(register, request(params: ["name": "After", "email": .string(uniqueEmail("pg-after"))]))
                    #expect(after.ok == true, "writes succeed again once space is freed: \(after)")
                } catch {
                    await child.stop()
                    throw error
                }
                await child.stop()
            }
        }
    }

    /// The sample store is ~720 KB: seeding it must not need tens of megabytes of log first (it
    /// did: 16 MiB was not enough).
    @Test func seedingTheSampleFitsOnADiskOfTwoMebibytes() async throws {
        try await withSmallDisk(size: "2m") { dataDirectory in
            let child = try await SvcdChild.launch(seed: true, dataDirectory: dataDirectory)
            do {
                let endpoints = try await child.endpoints()
                let reply = try await call(try endpoints.address(.getOrder), request(params: ["orderId": "o-000040"]))
                #expect(reply.ok == true, "the sample's last row: \(reply)")
            } catch {
                await child.stop()
                Issue.record("svcd could not seed on 2 MiB: \(child.stderrText)")
                throw error
            }
            await child.stop()
        }
    }

    /// Mounts a tmpfs of `size` (mount's syntax, e.g. `8m`) on a new temporary directory, runs
    /// `body` with the mount point, and always unmounts and removes it. Fails, saying why, where
    /// it cannot mount (not root).
    private func withSmallDisk(size: String, _ body: (String) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("smalldisk-\(UUID().uuidString)").path
        let disk = root + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let mount = try await runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", disk], timeout: 30)
        try #require(mount.status == 0, "this test mounts a small tmpfs and needs root: mount said \(mount.stderr)")
        defer { _ = umount2(disk, Int32(MNT_DETACH)) }
        try await body(disk)
    }

    /// Writes zeros to `path` until the file system has no room left.
    private func fillDisk(at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { break }
        }
        try #require(errno == ENOSPC, "filling stopped for another reason: \(String(cString: strerror(errno)))")
    }
}

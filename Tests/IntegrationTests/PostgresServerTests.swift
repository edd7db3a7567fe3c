import Foundation
import ServerProcesses
import Testing
import SvcdTestSupport

/// The throwaway PostgreSQL server the store's tests run against (Deploy/postgres-dev.sh):
/// it answers, goes away and comes back on the same port, and leaves nothing behind.
@Suite struct PostgresServerTests {
    @Test func answersPausesResumesAndStops() async throws {
        let server = try await PostgresServer.start()
        do {
            #expect(server.url == "postgres://\(server.user)@127.0.0.1:\(server.port)/svc")
            #expect(try await server.psql("select 1") == "1")
            // Real commits and room for several svcd instances' pools.
            #expect(try await server.psql("show fsync") == "on")
            #expect(try await server.psql("show listen_addresses") == "127.0.0.1")
            #expect(Int(try await server.psql("show max_connections")) ?? 0 >= 300)

            let extra = try await server.createDatabase()
            let extraName = try #require(extra.split(separator: "/").last.map(String.init))
            #expect(try await server.psql("select current_database()", database: extraName) == extraName)

            try await server.pause()
            let refused = try await server.runPsql("select 1")
            #expect(refused.exitStatus != 0)
            #expect(refused.stderr.contains("Connection refused"), "\(refused.stderr)")

            try await server.resume()
            #expect(try await server.psql("select 2") == "2")
            #expect(try await server.psql("select 3", database: extraName) == "3")
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory))
        try await server.stop()
    }

    @Test func aServerThatCannotStartIsAnErrorWithTheReason() async throws {
        // Never a skip: the script's complaint reaches the test. (A taken port fails the same
        // way, with the server log's tail; that costs an initdb, so it is not repeated here.)
        let failure = await #expect(throws: ServerProcessFailure.self) {
            try await PostgresServer.start(database: "no such name")
        }
        #expect(failure?.description.contains("plain identifier") == true, "\(String(describing: failure))")
    }

    @Test func withPostgresStopsTheServerWhenTheBodyThrows() async throws {
        struct Planned: Error {}
        var directory: String?
        await #expect(throws: Planned.self) {
            try await withPostgres { server in
                directory = server.directory
                #expect(FileManager.default.fileExists(atPath: server.directory))
                throw Planned()
            }
        }
        let started = try #require(directory)
        #expect(!FileManager.default.fileExists(atPath: started))
    }
}

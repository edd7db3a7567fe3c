import Domain
import Foundation
import Persistence
import SvcdTestSupport
import Testing
import Transport

/// The PostgreSQL store's own duties, beyond the repositories' rules: its URL, migrating and
/// seeding when several instances start at once, and what callers are told when the database
/// goes away or a commit's answer is lost.
@Suite(.postgres) struct PostgresStoreTests {
    @Test func databaseURLsParseAndTheirErrorsSayWhatIsWrong() throws {
        let full = try PostgresURL(parsing: "postgres://svc:p%40ss@db.example.com:6543/restaurants?sslmode=require")
        #expect(full.user == "svc" && full.password == "p@ss" && full.host == "db.example.com" && full.port == 6543)
        #expect(full.database == "restaurants" && full.tlsMode == .require)
        #expect(full.description == "postgres://svc:***@db.example.com:6543/restaurants?sslmode=require", "the password never shows")
        let short = try PostgresURL(parsing: "postgresql://me@127.0.0.1/svc")
        #expect(short.port == 5432 && short.password == nil && short.tlsMode == .prefer)
        #expect(short.targetSession == .any && !short.choosesServer)
        // Several servers, as libpq takes them: the store moves between them.
        let list = try PostgresURL(parsing: "postgres://svc@db1:5433,db2,[::1]:6000/restaurants?target_session_attrs=read-write&sslmode=disable")
        #expect(list.servers.map(\.description) == ["db1:5433", "db2:5432", "[::1]:6000"])
        #expect(list.targetSession == .readWrite && list.tlsMode == .disable && list.choosesServer)
        #expect(list.description == "postgres://svc@db1:5433,db2:5432,[::1]:6000/restaurants?target_session_attrs=read-write&sslmode=disable")
        #expect(try PostgresURL(parsing: "postgres://svc@db1/r?target_session_attrs=primary").choosesServer)
        let refusals: [(String, String)] = [
            ("mysql://u@h/db", "must start with postgres://"),
            ("postgres://h:5432/db", "names no user"),
            ("postgres://u@h:5432", "names no database"),
            ("postgres://u@h:5432/", "names no database"),
            ("postgres://u@h:70000/db", "not 1...65535"),
            ("postgres://u@h/db?sslmode=sometimes", "sslmode=sometimes"),
            ("postgres://u@h/db?pool=3", "unknown parameter pool"),
            ("postgres://u@h1,/db", "names no host"),
            ("postgres://u@h1:1,h2:x/db", "port x"),
            ("postgres://u@h1,h2/db?target_session_attrs=standby", "target_session_attrs=standby"),
            ("not a url at all", "postgres://"),
        ]
        for (text, problem) in refusals {
            #expect(throws: PostgresURLError.self, "\(text)") { try PostgresURL(parsing: text) }
            do {
                _ = try PostgresURL(parsing: text)
            } catch {
                #expect(error.description.contains(problem), "\(text): \(error)")
            }
        }
    }

    @Test func threeInstancesMigratingAtOnceApplyEachMigrationOnce() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let store = try await PostgresSuite.openStore(url: url, connections: 2, migrate: false)
                    let applied = try await store.migrate()
                    await store.close()
                    return applied
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // Each migration once over the three, whichever instance applied it.
        let names = ["events", "idempotency-keys", "order-status", "unqueried-indexes", "v1"]
        #expect(applied.sorted() == names)
        let recorded = try await server.psql("SELECT string_agg(name, ',' ORDER BY name) FROM schema_migrations", database: URL(string: url)!.lastPathComponent)
        #expect(recorded == names.joined(separator: ","))
    }

    @Test func ofInstancesSeedingAtOnceExactlyOneSeeds() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let seeded = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<3 {
                group.addTask {
                    let store = try await PostgresSuite.openStore(url: url, connections: 3)
                    let restaurants = PostgresRestaurantRepository(store: store)
                    let seeds = try await store.withSeedingLock { () async throws -> Int in
                        guard try await restaurants.newest(after: nil, limit: 1).isEmpty else { return 0 }
                        // Widen the window a check-then-insert without the lock would lose.
                        try await Task.sleep(for: .milliseconds(300))
                        try await restaurants.insert(Restaurant(
                            id: RestaurantID("seed-\(index)"), name: "Seeded", cuisine: "Test", priceLevel: 1, address: "1 Way",
                            latitude: 0, longitude: 0, createdAt: Timestamp(millisecondsSinceEpoch: 0)
                        ))
                        return 1
                    }
                    await store.close()
                    return seeds
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(seeded == 1)
        #expect(try await server.psql("SELECT count(*) FROM restaurants", database: URL(string: url)!.lastPathComponent) == "1")
    }

    @Test func whileTheDatabaseIsAwayRequestsAreUnavailableWithinTheConnectionWaitAndWriteNothing() async throws {
        // A server of its own: pausing the suite's would disturb the other tests.
        try await withPostgres(fsync: false) { server in
            let store = try await PostgresSuite.openStore(url: server.url, connections: 4)
            var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: server.url))
            configuration.connectionWait = .milliseconds(1500)
            let patient = store
            let impatient = PostgresStore(configuration: configuration, events: WireEventEncoding(), logger: .init(label: "tests.postgres"))
            impatient.start()
            let users = PostgresUserRepository(store: impatient)
            _ = try await users.insert(user("before"))
            try await server.pause()
            let clock = ContinuousClock()
            for attempt in 0..<1 {
                for operation in ["write", "read"] {
                    let started = clock.now
                    do {
                        if operation == "write" {
                            _ = try await users.insert(user("away-\(attempt)"))
                        } else {
                            _ = try await users.user(id: UserID("before"))
                        }
                        Issue.record("a \(operation) while the database is away must fail")
                    } catch RepositoryFailure.unavailable {
                        // The contract's answer: nothing was written, send it again later.
                    } catch RepositoryFailure.outcomeUnknown where operation == "write" {
                        // Also allowed: a pooled connection learns of the shutdown only when it
                        // reads the server's farewell, which may come after the write was sent.
                    }
                    let elapsed = clock.now - started
                    #expect(elapsed < .milliseconds(2500), "a \(operation) must be answered within the connection wait, took \(elapsed)")
                }
            }
            try await server.resume()
            // Reconnects by itself: the first requests after the return may still wait a moment.
            let back = ContinuousClock.now.advanced(by: .seconds(20))
            var reconnected = false
            while ContinuousClock.now < back {
                if (try? await users.user(id: UserID("before"))) != nil {
                    reconnected = true
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(reconnected, "the store must reconnect by itself once the database is back")
            let away = try await PostgresUserRepository(store: patient).allUsers().filter { $0.id.rawValue.hasPrefix("away") }
            #expect(away.isEmpty, "writes answered unavailable must have written nothing: \(away.map(\.id))")
            await impatient.close()
            await patient.close()
        }
    }

    /// svcd's `ok` is as durable as the server makes a commit: settings that let a crash of the
    /// server lose committed writes are named (svcd logs them at start-up).
    @Test func serverSettingsThatCanLoseCommittedWritesAreNamed() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = URL(string: url)!.lastPathComponent
        let warnings: @Sendable () async throws -> [String] = {
            let store = try await PostgresSuite.openStore(url: url, connections: 1)
            let warnings = try await store.durabilityWarnings()
            await store.close()
            return warnings
        }
        // The suite's server runs with fsync and synchronous_commit off (`postgres-dev.sh
        // --no-sync`: its tests check rules, not durability).
        let suiteServer = try await warnings()
        #expect(suiteServer.count == 2, "\(suiteServer)")
        #expect(suiteServer.first?.contains("fsync = off") == true && suiteServer.last?.contains("synchronous_commit is off") == true)
        // Settings for svcd's database count: with synchronous_commit on (or `local`, which
        // still flushes the commit on this server before it returns) only fsync is left.
        for setting in ["on", "local"] {
            _ = try await server.psql("ALTER DATABASE \(database) SET synchronous_commit = \(setting)")
            let left = try await warnings()
            #expect(left.count == 1 && left[0].contains("fsync = off"), "synchronous_commit = \(setting): \(left)")
        }
    }

    @Test func aServerThatFlushesEveryCommitGivesNoDurabilityWarning() async throws {
        try await withPostgres(fsync: true) { server in
            let store = try await PostgresSuite.openStore(url: try await server.createDatabase(), connections: 1)
            let warnings = try await store.durabilityWarnings()
            await store.close()
            #expect(warnings.isEmpty, "\(warnings)")
        }
    }

    @Test func registrationsWrittenTogetherAreEachAnsweredOnTheirOwnAlsoWhenTheServerRefusesTheirStatement() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        var configuration = PostgresStore.Configuration(url: try PostgresURL(parsing: url))
        // One statement at a time, so that the registrations below queue and go together.
        configuration.writeBatches = 1
        configuration.maximumConnections = 2
        let store = PostgresStore(configuration: configuration, events: WireEventEncoding(), logger: .init(label: "tests.postgres"))
        store.start()
        try await store.migrate()
        let users = PostgresUserRepository(store: store)
        #expect(try await users.insert(user("held")) == .stored(user("held")))
        // 120 new users, 40 registrations of addresses taken within the same wave, and one
        // whose id is taken (a primary-key violation refuses its whole statement).
        let wave: [User] = (0..<120).map { user("new-\($0)") }
            + (0..<40).map { User(id: UserID("twin-\($0)"), name: "Twin", email: EmailAddress("NEW-\($0)@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0)) }
            + [User(id: UserID("held"), name: "Clash", email: EmailAddress("clash@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))]
        let outcomes = await withTaskGroup(of: (String, String).self) { group in
            for member in wave {
                group.addTask {
                    do {
                        switch try await users.insert(member) {
                        case .stored: return (member.id.rawValue, "stored")
                        case .emailTaken: return (member.id.rawValue, "taken")
                        case .notFound: return (member.id.rawValue, "not found")
                        }
                    } catch {
                        return (member.id.rawValue, "error")
                    }
                }
            }
            return await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
        }
        let stored = try await users.allUsers()
        #expect(stored.count == 1 + 120, "the held user and one of each pair of twins")
        #expect(outcomes.values.filter { $0 == "stored" }.count == 120)
        #expect(outcomes.values.filter { $0 == "taken" }.count == 40)
        #expect(outcomes["held"] == "error", "the clashing id is refused, and only it")
        for index in 0..<40 {
            let winner = stored.first { $0.email.uniquenessKey == "new-\(index)@example.com" }
            let answered = outcomes["new-\(index)"] == "stored" ? "new-\(index)" : "twin-\(index)"
            #expect(winner?.id.rawValue == answered, "the registration answered stored is the one stored")
        }
        #expect(!stored.contains { $0.name == "Clash" })
        await store.close()
    }

    @Test func aWriteWhoseCommitAnswerIsLostIsReportedAsOfUnknownOutcome() async throws {
        let server = try #require(PostgresSuite.current)
        let url = try await server.createDatabase()
        let database = URL(string: url)!.lastPathComponent
        let store = try await PostgresSuite.openStore(url: url, connections: 2)
        let world = (restaurants: PostgresRestaurantRepository(store: store), menu: PostgresMenuRepository(store: store))
        try await world.restaurants.insert(Restaurant(
            id: RestaurantID("r"), name: "Slow", cuisine: "Test", priceLevel: 1, address: "1 Way", latitude: 0, longitude: 0,
            createdAt: Timestamp(millisecondsSinceEpoch: 0)
        ))
        try await world.menu.insert(MenuItem(id: MenuItemID("m"), restaurantId: RestaurantID("r"), name: "Soup", price: Money(minorUnits: 500, currency: .usd), stock: 1))
        // A deferred trigger makes COMMIT itself take seconds, so the backend can be ended while
        // the client waits for COMMIT's answer.
        _ = try await server.psql("""
            CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON menu_items DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION slow_commit();
            """, database: database)
        let claim = IdempotencyClaim(key: "lost", request: "restock", encodeResult: { Array("\($0)".utf8) })
        let write = Task { try await world.menu.restock(itemId: MenuItemID("m"), quantity: 2, claim: claim) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        var ended = false
        while ContinuousClock.now < deadline, !ended {
            let killed = try await server.psql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND query LIKE 'COMMIT%' AND state = 'active'",
                database: database
            )
            ended = killed == "1"
            if !ended { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(ended, "the test must catch the write in its COMMIT")
        do {
            _ = try await write.value
            Issue.record("a write whose COMMIT lost its connection must not be reported as done")
        } catch RepositoryFailure.outcomeUnknown(let reason) {
            #expect(reason.lowercased().contains("commit"), "\(reason)")
        }
        await store.close()
    }
}

private func user(_ id: String) -> User {
    User(id: UserID(id), name: "Away", email: EmailAddress("\(id)@example.com")!, joinedAt: Timestamp(millisecondsSinceEpoch: 0))
}

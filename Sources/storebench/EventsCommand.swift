import ArgumentParser
import Foundation
import LoadEngine
import ServerProcesses
import WireContract

/// What the event log costs: durable RegisterUser and PlaceOrder through svcd appending their
/// events vs the same build writing events nowhere (`svcd --benchmark-without-events`), in
/// alternating runs, on SQLite and on 3 instances on PostgreSQL; then commit → live-stream latency
/// at half the measured capacity; then, on PostgreSQL, what numbering inside each write (a counter
/// row) would cost against numbering after commit, with pgbench.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Durable writes with the event log vs without it (SQLite, 3 instances on PostgreSQL), and commit → live-stream latency.",
        discussion: """
            Per store and round, alternating which goes first: svcd (release build, --seed-sample, \
            fresh data directory or database) with the event log, and the same build with \
            --benchmark-without-events; each measures pipelined RegisterUser and PlaceOrder with \
            --in-flight requests spread over the instances (one DEALER each), with a subscriber taking \
            everything from each instance's live stream (unless --without-subscribers). Then, with events, \
            RegisterUser open-loop at half the median capacity measured, with a subscriber on every \
            instance's live stream: send → event arrival (an upper bound of commit → publication) \
            and send → reply, p50 and p99. On PostgreSQL, pgbench then compares the two ways to \
            number events: a write's transaction inserting its event unnumbered (what svcd does; \
            numbered after commit) and one that also takes the next number from a counter row \
            (every commit of the cluster then waits for the one before). Goals: each write with \
            events ≥ 0.85 × without, on both stores; commit → live p99 ≤ 50 ms on SQLite and \
            ≤ 250 ms on PostgreSQL.
            """
    )

    @Option(name: .long, help: "Stores, comma separated: sqlite, postgres.")
    var stores: String = "sqlite,postgres"

    @Option(name: .long, help: "svcd instances on PostgreSQL.")
    var instances: Int = 3

    @Option(name: .long, help: "Requests kept in flight over all instances (and pgbench's clients).")
    var inFlight: Int = 64

    @Option(name: .long, help: "Measured seconds per run.")
    var seconds: Int = 5

    @Option(name: .long, help: "Warm-up seconds per run.")
    var warmup: Int = 1

    @Option(name: .long, help: "Rounds (each measures both builds).")
    var rounds: Int = 3

    @Option(name: .long, help: "Seconds of the latency run.")
    var latencySeconds: Int = 10

    @Flag(name: .long, help: "Measure throughput with nobody on the live streams (svcd then reads and publishes no events).")
    var withoutSubscribers = false

    @Flag(name: .long, help: "Skip the pgbench comparison of the two ways to number events.")
    var skipPgbench = false

    @Option(name: .long, help: "The svcd executable (default: next to this one).")
    var svcd: String?

    @Option(name: .long, help: "Deploy/postgres-dev.sh (default: found from this executable's path upwards, or the working directory).")
    var postgresDev: String?

    func validate() throws {
        guard !selectedStores.isEmpty, stores.split(separator: ",").count == selectedStores.count else {
            throw ValidationError("--stores must be sqlite, postgres or both, comma separated")
        }
        guard (1...16).contains(instances) else { throw ValidationError("--instances must be 1…16") }
        guard (1...1000).contains(inFlight), inFlight >= instances else { throw ValidationError("--in-flight must be 1…1000 and at least --instances") }
        guard (1...600).contains(seconds), (0...60).contains(warmup), (1...600).contains(latencySeconds) else {
            throw ValidationError("--seconds and --latency-seconds must be 1…600, --warmup 0…60")
        }
        guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be 1…50") }
    }

    private var selectedStores: [String] {
        stores.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { ["sqlite", "postgres"].contains($0) }
    }

    /// One measured run.
    private struct Run {
        let store: String
        let round: Int
        let events: Bool
        let workload: ClusterWorkload
        let perSecond: Double
        let errors: String
    }

    func run() async throws {
        try await CleanupList.withScratch(named: "storebench-events") { scratch, cleanup in
            try await benchmark(scratch: scratch, cleanup: cleanup)
        }
    }

    private func benchmark(scratch: String, cleanup: CleanupList) async throws {
        let svcdPath = try SvcdInstance.executable(svcd)
        Self.say("storebench events: durable writes with the event log vs without it (svcd --benchmark-without-events), then commit → live latency")
        Self.say("\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverages()); svcd \(svcdPath); \(inFlight) in flight, warm-up \(warmup) s, window \(seconds) s, \(rounds) rounds")
        var runs: [Run] = []
        var latencies: [(store: String, rate: Double, outcome: EventLatencyProbe.Outcome)] = []
        var numbering: (outbox: [Double], counter: [Double])?

        if selectedStores.contains("sqlite") {
            Self.say("")
            Self.say("SQLite (one svcd, WAL, synchronous=FULL)")
            for round in 1...rounds {
                for events in round % 2 == 1 ? [true, false] : [false, true] {
                    let directory = scratch + "/sqlite-\(round)-\(events ? "events" : "none")"
                    let instance = try await launch(svcdPath, store: ["--store", "sqlite"], directory: directory, events: events, cleanup: cleanup)
                    runs += try await measure(store: "sqlite", round: round, events: events, instances: [instance], cleanup: cleanup)
                    try? FileManager.default.removeItem(atPath: directory)
                }
            }
            let capacity = median(runs.filter { $0.store == "sqlite" && $0.events && $0.workload == .register }.map(\.perSecond))
            let directory = scratch + "/sqlite-latency"
            let instance = try await launch(svcdPath, store: ["--store", "sqlite"], directory: directory, events: true, cleanup: cleanup)
            let outcome = try await probe([instance], rate: capacity / 2, tag: "sqlite")
            await stop([instance], cleanup: cleanup)
            latencies.append(("sqlite", capacity / 2, outcome))
        }

        if selectedStores.contains("postgres") {
            let server = try await PostgresDevServer.start(script: postgresDev)
            cleanup.add("postgres") { server.stopBlocking() }
            for setting in ["fsync", "synchronous_commit"] {
                let value = try await server.psql("SHOW \(setting)")
                guard value == "on" else { throw BenchFailure("\(setting) is \(value), not on: the runs would not be durable") }
            }
            Self.say("")
            Self.say("PostgreSQL \(try await server.psql("SHOW server_version")) (fsync and synchronous_commit on), \(instances) svcd")
            var databases = 0
            func freshDatabase() async throws -> String {
                databases += 1
                let name = "events_bench_\(databases)"
                _ = try await server.psql("CREATE DATABASE \(name)")
                return URL(string: server.url)!.deletingLastPathComponent().appendingPathComponent(name).absoluteString
            }
            for round in 1...rounds {
                for events in round % 2 == 1 ? [true, false] : [false, true] {
                    let url = try await freshDatabase()
                    let running = try await launchCluster(svcdPath, url: url, scratch: scratch + "/pg-\(round)-\(events)", events: events, cleanup: cleanup)
                    runs += try await measure(store: "postgres", round: round, events: events, instances: running, cleanup: cleanup)
                }
            }
            let capacity = median(runs.filter { $0.store == "postgres" && $0.events && $0.workload == .register }.map(\.perSecond))
            let running = try await launchCluster(svcdPath, url: try await freshDatabase(), scratch: scratch + "/pg-latency", events: true, cleanup: cleanup)
            let outcome = try await probe(running, rate: capacity / 2, tag: "pg")
            await stop(running, cleanup: cleanup)
            latencies.append(("postgres", capacity / 2, outcome))
            if !skipPgbench {
                numbering = try await compareNumbering(server: server, scratch: scratch, cleanup: cleanup)
            }
        }
        summarize(runs, latencies: latencies, numbering: numbering)
    }

    // MARK: Runs

    private func launch(_ executable: String, store: [String], directory: String, events: Bool, cleanup: CleanupList) async throws -> SvcdInstance {
        try await SvcdInstance.launch(
            executable: executable, store: store, dataDirectory: directory, arguments: events ? [] : ["--benchmark-without-events"],
            started: { pid in cleanup.add("svcd-\(pid)", CleanupList.terminate(pid)) }
        )
    }

    private func launchCluster(_ executable: String, url: String, scratch: String, events: Bool, cleanup: CleanupList) async throws -> [SvcdInstance] {
        // One seeds (the others would wait for it), then the rest start together.
        var running = [try await launch(executable, store: ["--store", "postgres", "--database-url", url], directory: scratch + "/0", events: events, cleanup: cleanup)]
        for index in 1..<instances {
            running.append(try await launch(executable, store: ["--store", "postgres", "--database-url", url], directory: scratch + "/\(index)", events: events, cleanup: cleanup))
        }
        return running
    }

    private func stop(_ instances: [SvcdInstance], cleanup: CleanupList) async {
        for instance in instances {
            await instance.stop()
            cleanup.remove("svcd-\(instance.pid)")
        }
    }

    /// RegisterUser and PlaceOrder through `instances`, which are stopped afterwards.
    private func measure(store: String, round: Int, events: Bool, instances: [SvcdInstance], cleanup: CleanupList) async throws -> [Run] {
        do {
            let runs = try await measureRunning(store: store, round: round, events: events, instances: instances)
            await stop(instances, cleanup: cleanup)
            return runs
        } catch {
            await stop(instances, cleanup: cleanup)
            throw error
        }
    }

    private func measureRunning(store: String, round: Int, events: Bool, instances: [SvcdInstance]) async throws -> [Run] {
        let fixtures = try await OrderFixtures.make(through: instances[0], count: inFlight)
        var runs: [Run] = []
        for workload in [ClusterWorkload.register, .order] {
            // Subscribed in both builds, so the only difference is the event log.
            let drain = withoutSubscribers ? nil : try await StreamDrain.start(try instances.map { try $0.eventStream() })
            let addresses = try instances.map { try $0.address(workload.useCase) }
            let tag = "\(store)\(round)\(events ? "e" : "n")"
            let orders = fixtures.orderParams
            let params: @Sendable (Int, Int, Int, Int) -> String
            if workload == .register {
                params = { instance, _, _, sequence in "{\"name\":\"Bench User\",\"email\":\"ev\(tag)-\(instance)-\(sequence)@example.com\"}" }
            } else {
                params = { _, _, globalSlot, _ in orders[globalSlot % orders.count] }
            }
            let outcome = try await SpreadLoad(addresses: addresses, inFlight: inFlight, params: params).run(
                warmup: .seconds(warmup), seconds: .seconds(seconds), snapshot: { CPUSnapshot.take(svcd: instances.map(\.pid), postmaster: 0) }
            )
            let heard = try await drain?.stop().map(String.init).joined(separator: "/") ?? "-"
            let errors = outcome.errors.isEmpty ? "0" : outcome.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
            let run = Run(store: store, round: round, events: events, workload: workload, perSecond: outcome.perSecond, errors: errors)
            Self.say("  round \(round)  \(events ? "with events   " : "without events")  \(pad(workload.useCase.rawValue, 13)) \(pad(format(outcome.perSecond), 8))/s  errors \(errors)  events heard \(heard)")
            runs.append(run)
        }
        return runs
    }

    private func probe(_ instances: [SvcdInstance], rate: Double, tag: String) async throws -> EventLatencyProbe.Outcome {
        Self.say("  latency: RegisterUser open-loop at \(format(rate))/s (half the median capacity with events) for \(latencySeconds) s, a subscriber on each of \(instances.count) instance\(instances.count == 1 ? "" : "s")")
        let probe = EventLatencyProbe(
            writeAddresses: try instances.map { try $0.address(.registerUser) }, streamAddresses: try instances.map { try $0.eventStream() },
            rate: rate, seconds: Double(latencySeconds), tag: "\(tag)-\(UUID().uuidString.prefix(6))"
        )
        return try await probe.run()
    }

    // MARK: Numbering: after commit vs a counter row

    /// pgbench scripts over copies of the users and events tables: a user and its unnumbered
    /// event per transaction (svcd's way), and the same taking the next seq from a counter row.
    private func compareNumbering(server: PostgresDevServer, scratch: String, cleanup: CleanupList) async throws -> (outbox: [Double], counter: [Double]) {
        // The tables as svcd's schema has them (users, events with its indexes, a counter row).
        _ = try await server.psql("""
            CREATE TABLE bench_users (
                id TEXT COLLATE "C" PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
                email_key TEXT COLLATE "C" NOT NULL UNIQUE, joined_at BIGINT NOT NULL, is_active BOOLEAN NOT NULL,
                subscription_active_until BIGINT
            );
            CREATE TABLE bench_events (
                id BIGSERIAL PRIMARY KEY, seq BIGINT UNIQUE, type TEXT NOT NULL, at BIGINT NOT NULL, key TEXT NOT NULL,
                data TEXT NOT NULL, traceparent TEXT
            );
            CREATE INDEX bench_events_unnumbered ON bench_events (id) WHERE seq IS NULL;
            CREATE TABLE bench_counter (only_row boolean PRIMARY KEY, last_seq bigint NOT NULL);
            INSERT INTO bench_counter VALUES (true, 0)
            """)
        let outboxScript = scratch + "/outbox.sql", counterScript = scratch + "/counter.sql"
        try Self.script(counter: false).write(toFile: outboxScript, atomically: true, encoding: .utf8)
        try Self.script(counter: true).write(toFile: counterScript, atomically: true, encoding: .utf8)
        let pgbench = server.binDirectory + "/pgbench"
        Self.say("")
        Self.say("Numbering, pgbench -c \(inFlight) -j 2 -M prepared -T \(seconds): a user and its event per transaction, the event unnumbered (svcd) vs numbered from a counter row:")
        Self.say(Self.script(counter: true).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        var outbox: [Double] = [], counter: [Double] = []
        for round in 1...rounds {
            for useCounter in round % 2 == 1 ? [false, true] : [true, false] {
                let run = PgbenchRun(
                    executable: pgbench, server: server, scriptArguments: PgbenchScript.arguments(scriptFile: useCounter ? counterScript : outboxScript), clients: inFlight, jobs: 2,
                    mode: "prepared"
                )
                let outcome = try await run.run(seconds: seconds, snapshot: { CPUSnapshot.take(svcd: [], postmaster: 0) }, started: { pid in
                    cleanup.add("pgbench") { kill(pid, SIGTERM) }
                })
                cleanup.remove("pgbench")
                (useCounter ? { counter.append(outcome.transactionsPerSecond) } : { outbox.append(outcome.transactionsPerSecond) })()
                Self.say("  round \(round)  \(useCounter ? "counter row     " : "numbered after  ")  \(format(outcome.transactionsPerSecond)) transactions/s, avg latency \(String(format: "%.1f", outcome.latencyAverageMillis)) ms")
            }
        }
        return (outbox, counter)
    }

    static func script(counter: Bool) -> String {
        let insertUser = """
            INSERT INTO bench_users (id, name, email, email_key, joined_at, is_active, subscription_active_until)
            VALUES ('u-' || :client_id || '-' || :n, 'Bench User', 'p' || :client_id || '-' || :n || '@example.com', 'p' || :client_id || '-' || :n || '@example.com', 1767225600000, true, NULL)
            ON CONFLICT (email_key) DO NOTHING RETURNING id;
            """
        // A space after every colon of the JSON: pgbench takes `:name` for a variable.
        let data = #"'{"\#(WireMember.user.name)": {"\#(WireMember.id.name)": "u-' || :client_id || '-' || :n || '", "\#(WireMember.name.name)": "Bench User", "\#(WireMember.email.name)": "p@example.com", "\#(WireMember.joinedAt.name)": "2026-01-01T00: 00: 00.000Z", "\#(WireMember.isActive.name)": true, "\#(WireMember.subscriptionActiveUntil.name)": null}}'"#
        let event = counter
            ? """
            UPDATE bench_counter SET last_seq = last_seq + 1 RETURNING last_seq AS seq \\gset
            INSERT INTO bench_events (seq, type, at, key, data) VALUES (:seq, 'UserRegistered', 1767225600000, 'u-' || :client_id || '-' || :n, \(data));
            """
            : """
            INSERT INTO bench_events (type, at, key, data) VALUES ('UserRegistered', 1767225600000, 'u-' || :client_id || '-' || :n, \(data));
            """
        return """
            \\set n random(1, 1000000000000)
            BEGIN;
            \(insertUser)
            \(event)
            COMMIT;

            """
    }

    // MARK: Summary

    private func summarize(_ runs: [Run], latencies: [(store: String, rate: Double, outcome: EventLatencyProbe.Outcome)], numbering: (outbox: [Double], counter: [Double])?) {
        Self.say("")
        Self.say("Median across rounds: with events ÷ without (per round, in round order)")
        var met = true
        for store in selectedStores {
            for workload in [ClusterWorkload.register, .order] {
                let with = runs.filter { $0.store == store && $0.workload == workload && $0.events }
                let without = runs.filter { $0.store == store && $0.workload == workload && !$0.events }
                guard !with.isEmpty, !without.isEmpty else { continue }
                let ratio = median(with.map(\.perSecond)) / median(without.map(\.perSecond))
                let perRound = zip(with, without).map { String(format: "%.2f", $0.perSecond / $1.perSecond) }.joined(separator: ", ")
                met = met && ratio >= 0.85
                Self.say("  \(pad(store, 9)) \(pad(workload.useCase.rawValue, 13)) \(pad(format(median(with.map(\.perSecond))), 8))/s vs \(pad(format(median(without.map(\.perSecond))), 8))/s → \(String(format: "%.2f", ratio))× (\(perRound))")
            }
        }
        Self.say("Goal: writes with the event log ≥ 0.85 × without, on both stores → \(met ? "met" : "missed")")
        for (store, rate, outcome) in latencies {
            let bound = store == "sqlite" ? 50.0 : 250.0
            let p99 = percentile(outcome.liveMicros, 99) / 1000
            Self.say("")
            Self.say("Commit → live, \(store), RegisterUser at \(format(rate))/s: \(outcome.acknowledged) acknowledged, \(outcome.failed) failed, \(outcome.missed) (subscriber, event) pairs missed")
            Self.say("  send → event on the stream: p50 \(String(format: "%.1f", percentile(outcome.liveMicros, 50) / 1000)) ms, p99 \(String(format: "%.1f", p99)) ms, max \(String(format: "%.1f", (outcome.liveMicros.max() ?? 0) / 1000)) ms")
            Self.say("  send → ok reply:            p50 \(String(format: "%.1f", percentile(outcome.replyMicros, 50) / 1000)) ms, p99 \(String(format: "%.1f", percentile(outcome.replyMicros, 99) / 1000)) ms")
            Self.say("Goal: commit → live p99 ≤ \(Int(bound)) ms on \(store) → \(String(format: "%.1f", p99)) ms, \(p99 <= bound && outcome.missed == 0 ? "met" : "missed")")
        }
        if let numbering, !numbering.outbox.isEmpty {
            let ratio = median(numbering.counter) / median(numbering.outbox)
            Self.say("")
            Self.say("Numbering inside each write (counter row) ÷ after commit: \(format(median(numbering.counter)))/s vs \(format(median(numbering.outbox)))/s → \(String(format: "%.2f", ratio))×")
        }
    }

    private static func say(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

import ArgumentParser
import Foundation
import LoadEngine
import ServerProcesses
import WireJSON
import WireContract

/// svcd instances on one PostgreSQL server against pgbench on the same server: durable writes
/// and reads, rows per second and CPU per request, in alternating rounds.
struct ClusterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "RegisterUser, PlaceOrder and GetRestaurant through 1 and 3 svcd on PostgreSQL vs pgbench on the same server.",
        discussion: """
            Starts its own PostgreSQL with Deploy/postgres-dev.sh (fsync on; synchronous_commit and \
            fsync are checked to be on), then per round: pgbench's scripts, each the reference of \
            one workload (insert: a custom script, one INSERT … ON CONFLICT DO NOTHING RETURNING per \
            transaction into bench_users, a copy of the users table, for RegisterUser; pgbench's \
            built-in select-only (-S) for GetRestaurant; its built-in tpcb-like, scale 10, for \
            PlaceOrder), then for each instance count N: N release-built svcd (--store postgres, \
            --port-base 0) and each workload with --in-flight requests spread over them (one DEALER \
            per instance on its own thread). CPU per request: utime+stime from /proc/<pid>/stat of \
            every svcd and every PostgreSQL process (the postmaster's children, ended ones through \
            its cutime) over the measured window, divided by the requests answered in it. Goals: \
            RegisterUser through the most instances ≥ 0.5 × insert; one svcd's GetRestaurant ≥ 0.7 \
            × select-only and ≤ 25 µs of svcd CPU per read; one svcd's PlaceOrder ≥ 1.0 × tpcb-like \
            and ≤ 120 µs of svcd CPU per order; the most instances no slower in total than one. \
            Everything is stopped at the end, on failure and on Ctrl-C.
            """
    )

    @Option(name: .long, help: "svcd instance counts to measure, comma separated.")
    var instances: String = "1,3"

    @Option(name: .long, help: "Workloads, comma separated: register (RegisterUser), order (PlaceOrder), read (GetRestaurant).")
    var workloads: String = "register,order,read"

    @Option(name: .long, help: "Requests kept in flight over all instances, and pgbench's clients.")
    var inFlight: Int = 64

    @Option(name: .long, help: "Measured seconds per run (pgbench runs --warmup + --seconds).")
    var seconds: Int = 5

    @Option(name: .long, help: "Warm-up seconds per service run before the window opens.")
    var warmup: Int = 1

    @Option(name: .long, help: "Rounds.")
    var rounds: Int = 3

    @Option(name: .long, help: "svcd's --database-connections (default: svcd's own, 32 per instance).")
    var databaseConnections: Int?

    @Option(name: .long, help: "pgbench's -M: simple, extended or prepared.")
    var pgbenchMode: String = "prepared"

    @Option(name: .long, help: "pgbench's -j (threads).")
    var pgbenchJobs: Int = 2

    @Option(name: .long, help: "pgbench scripts, comma separated: insert, select-only, tpcb-like (the references of register, read and order).")
    var pgbenchScripts: String = PgbenchScript.allCases.map(\.rawValue).joined(separator: ",")

    @Flag(name: .long, help: "Skip the pgbench runs.")
    var skipPgbench = false

    @Option(name: .long, help: "The svcd executable (default: next to this one).")
    var svcd: String?

    @Option(name: .long, help: "The pgbench executable (default: the one next to the server's psql).")
    var pgbench: String?

    @Option(name: .long, help: "Deploy/postgres-dev.sh (default: found from this executable's path upwards, or the working directory).")
    var postgresDev: String?

    @Option(name: .long, help: "An extra argument for every svcd (repeatable), e.g. --svcd-argument=--max-in-flight=4096.")
    var svcdArgument: [String] = []

    func validate() throws {
        let counts = instanceCounts
        guard !counts.isEmpty, counts.allSatisfy({ (1...16).contains($0) }) else { throw ValidationError("--instances must be numbers 1…16, comma separated") }
        guard !selectedWorkloads.isEmpty, workloads.split(separator: ",").count == selectedWorkloads.count else {
            throw ValidationError("--workloads must be some of \(ClusterWorkload.allCases.map(\.rawValue).joined(separator: ", ")), comma separated")
        }
        guard (1...1000).contains(inFlight), inFlight >= counts.max() ?? 1 else { throw ValidationError("--in-flight must be 1…1000 and at least the largest instance count") }
        guard (1...600).contains(seconds), (0...60).contains(warmup) else { throw ValidationError("--seconds must be 1…600, --warmup 0…60") }
        guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be 1…50") }
        guard ["simple", "extended", "prepared"].contains(pgbenchMode) else { throw ValidationError("--pgbench-mode must be simple, extended or prepared") }
        guard (1...64).contains(pgbenchJobs) else { throw ValidationError("--pgbench-jobs must be 1…64") }
        guard !selectedScripts.isEmpty, pgbenchScripts.split(separator: ",").count == selectedScripts.count else {
            throw ValidationError("--pgbench-scripts must be some of \(PgbenchScript.allCases.map(\.rawValue).joined(separator: ", ")), comma separated")
        }
        if let databaseConnections, !(2...1000).contains(databaseConnections) { throw ValidationError("--database-connections must be 2…1000") }
    }

    private var instanceCounts: [Int] { instances.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
    private var selectedWorkloads: [ClusterWorkload] {
        workloads.split(separator: ",").compactMap { ClusterWorkload(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }
    private var selectedScripts: [PgbenchScript] {
        pgbenchScripts.split(separator: ",").compactMap { PgbenchScript(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }

    func run() async throws {
        try await CleanupList.withScratch(named: "storebench-cluster") { scratch, cleanup in
            try await benchmark(scratch: scratch, cleanup: cleanup)
        }
    }

    // MARK: The benchmark

    private func benchmark(scratch: String, cleanup: CleanupList) async throws {
        let svcdPath = try SvcdInstance.executable(svcd)
        let script = try postgresDev ?? PostgresDevServer.scriptPath()
        Self.say("storebench cluster: svcd on PostgreSQL (1 server) vs pgbench on the same server")
        Self.say("\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverages()) at the start")

        let server = try await PostgresDevServer.start(script: script)
        cleanup.add("postgres") { server.stopBlocking() }
        let pgbenchPath = pgbench ?? server.binDirectory + "/pgbench"
        let postmaster = try server.postmasterPID()
        let settings = try await server.psql(
            "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN "
                + "('fsync', 'synchronous_commit', 'full_page_writes', 'wal_compression', 'wal_sync_method', 'shared_buffers', 'max_connections', 'commit_delay', 'wal_level')"
        )
        let version = try await server.psql("SHOW server_version")
        Self.say("PostgreSQL \(version) at \(server.url) (\(server.directory)), postmaster \(postmaster): \(settings)")
        for setting in ["fsync", "synchronous_commit"] {
            let value = try await server.psql("SHOW \(setting)")
            guard value == "on" else { throw BenchFailure("\(setting) is \(value), not on: the runs would not be durable") }
        }

        // Set-up through one instance: the sample data (restaurants), the users and menu items
        // the orders use, and pgbench's table, a copy of users with its indexes.
        let setupInstances = try await startInstances(1, executable: svcdPath, server: server, scratch: scratch, cleanup: cleanup)
        let fixtures: OrderFixtures
        do {
            fixtures = try await OrderFixtures.make(through: setupInstances[0], count: inFlight)
        } catch {
            await stopInstances(setupInstances, cleanup: cleanup)
            throw error
        }
        await stopInstances(setupInstances, cleanup: cleanup)
        try await _ = server.psql("CREATE TABLE bench_users (LIKE users INCLUDING ALL)")
        let pgbenchScript = scratch + "/insert-user.sql"
        try PgbenchScript.insertScript.write(toFile: pgbenchScript, atomically: true, encoding: .utf8)
        let pgbenchVersion = try await ChildTool.run(pgbenchPath, ["--version"]).succeeded("pgbench --version").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let scripts = skipPgbench ? [] : selectedScripts
        if scripts.contains(where: \.needsPgbenchTables) {
            // pgbench's own tables beside svcd's (their names start with pgbench_), vacuumed once.
            let arguments = ["-i", "-q", "-s", "\(PgbenchScript.scale)", "-h", server.host, "-p", String(server.port), "-U", server.user, server.database]
            _ = try await ChildTool.run(pgbenchPath, arguments, timeout: .seconds(600)).succeeded("pgbench \(arguments.joined(separator: " "))")
        }
        Self.say("\(pgbenchVersion): -c \(inFlight) -j \(pgbenchJobs) -M \(pgbenchMode) -T \(warmup + seconds); scripts \(scripts.map(\.rawValue).joined(separator: ", ")) (built-in ones at scale \(PgbenchScript.scale)); insert:")
        Self.say(PgbenchScript.insertScript.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        Self.say("svcd \(svcdPath): --database-connections \(databaseConnections.map(String.init) ?? "default (32)")\(svcdArgument.isEmpty ? "" : ", " + svcdArgument.joined(separator: " ")); \(inFlight) in flight, warm-up \(warmup) s, window \(seconds) s")
        Self.say("")
        Self.say(ClusterResult.header)

        var results: [ClusterResult] = []
        for round in 1...rounds {
            Self.say("-- round \(round), load average \(loadAverages())")
            for script in scripts {
                let result = try await measurePgbench(
                    round: round, script: script, executable: pgbenchPath, customScript: pgbenchScript, server: server, postmaster: postmaster, cleanup: cleanup
                )
                results.append(result)
                Self.say(result.row)
            }
            for count in instanceCounts {
                let running = try await startInstances(count, executable: svcdPath, server: server, scratch: scratch, cleanup: cleanup)
                do {
                    for workload in selectedWorkloads {
                        let result = try await measureService(
                            round: round, workload: workload, instances: running, fixtures: fixtures, postmaster: postmaster
                        )
                        results.append(result)
                        Self.say(result.row)
                    }
                } catch {
                    await stopInstances(running, cleanup: cleanup)
                    throw error
                }
                await stopInstances(running, cleanup: cleanup)
            }
        }
        Self.say("-- load average \(loadAverages()) at the end")
        summarize(results)
    }

    private func measurePgbench(
        round: Int, script: PgbenchScript, executable: String, customScript: String, server: PostgresDevServer, postmaster: Int32, cleanup: CleanupList
    ) async throws -> ClusterResult {
        let run = PgbenchRun(
            executable: executable, server: server, scriptArguments: script.arguments(customScript: customScript), clients: inFlight, jobs: pgbenchJobs,
            mode: pgbenchMode
        )
        let outcome = try await run.run(
            seconds: warmup + seconds, snapshot: { CPUSnapshot.take(svcd: [], postmaster: postmaster) },
            started: { pid in cleanup.add("pgbench") { kill(pid, SIGTERM) } }
        )
        cleanup.remove("pgbench")
        return ClusterResult(
            round: round, target: "pgbench", workload: script.label, perSecond: outcome.transactionsPerSecond, requests: outcome.transactions,
            latency: String(format: "avg %.1f", outcome.latencyAverageMillis), errors: "\(outcome.failed)", usage: outcome.usage,
            clientSeconds: outcome.usage.reapedChildrenSeconds
        )
    }

    private func measureService(
        round: Int, workload: ClusterWorkload, instances: [SvcdInstance], fixtures: OrderFixtures, postmaster: Int32
    ) async throws -> ClusterResult {
        let addresses = try instances.map { try $0.address(workload.useCase) }
        let tag = "r\(round)n\(instances.count)"
        let params: @Sendable (Int, Int, Int, Int) -> String
        switch workload {
        case .register:
            params = { instance, _, _, sequence in #"{"\#(WireMember.name.name)":"Bench User","\#(WireMember.email.name)":"c\#(tag)-\#(instance)-\#(sequence)@example.com"}"# }
        case .order:
            let orders = fixtures.orderParams
            params = { _, _, globalSlot, _ in orders[globalSlot % orders.count] }
        case .read:
            let reads = (1...300).map { String(format: #"{"\#(WireMember.restaurantId.name)":"r-%06d"}"#, $0) }
            params = { _, _, globalSlot, sequence in reads[(globalSlot * 7 + sequence) % reads.count] }
        }
        let pids = instances.map(\.pid)
        let logged = instances.map(\.svcd.logSize)
        let outcome = try await SpreadLoad(addresses: addresses, inFlight: inFlight, params: params).run(
            warmup: .seconds(warmup), seconds: .seconds(seconds), snapshot: { CPUSnapshot.take(svcd: pids, postmaster: postmaster) }
        )
        let errors = outcome.errors.isEmpty ? "0" : outcome.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
        if !outcome.errors.isEmpty {
            // What svcd said about the requests it refused (its warnings, at most a few each).
            for (instance, offset) in zip(instances, logged) {
                let lines = instance.svcd.logLines(after: offset)
                guard !lines.isEmpty else { continue }
                Self.say("   svcd \(instance.pid) logged \(lines.count) lines during the run\(lines.count > 6 ? ", the first 6" : ""):")
                for line in lines.prefix(6) { Self.say("     " + line) }
            }
        }
        let latency = String(format: "%.1f/%.1f", percentile(outcome.latenciesMicros, 50) / 1000, percentile(outcome.latenciesMicros, 99) / 1000)
        return ClusterResult(
            round: round, target: "\(instances.count) svcd", workload: workload.useCase.rawValue, perSecond: outcome.perSecond, requests: outcome.ok,
            latency: latency, errors: errors, usage: outcome.usage, clientSeconds: outcome.usage.selfSeconds
        )
    }

    // MARK: svcd instances

    private func startInstances(_ count: Int, executable: String, server: PostgresDevServer, scratch: String, cleanup: CleanupList) async throws -> [SvcdInstance] {
        var arguments = svcdArgument
        if let databaseConnections { arguments += ["--database-connections", "\(databaseConnections)"] }
        let extra = arguments
        return try await withThrowingTaskGroup(of: (Int, SvcdInstance).self) { group in
            for index in 0..<count {
                group.addTask {
                    let instance = try await SvcdInstance.launch(
                        executable: executable, databaseURL: server.url, dataDirectory: scratch + "/svcd-\(index)", arguments: extra,
                        started: { pid in cleanup.add("svcd-\(pid)", CleanupList.terminate(pid)) }
                    )
                    return (index, instance)
                }
            }
            var started: [(Int, SvcdInstance)] = []
            for try await entry in group { started.append(entry) }
            return started.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private func stopInstances(_ instances: [SvcdInstance], cleanup: CleanupList) async {
        await withTaskGroup(of: Void.self) { group in
            for instance in instances {
                group.addTask {
                    await instance.stop()
                    cleanup.remove("svcd-\(instance.pid)")
                }
            }
        }
    }

    /// Writes a line to stdout at once (unbuffered, unlike `print` into a pipe or file), so each
    /// run's row shows as soon as it is measured.
    private static func say(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    // MARK: Summary

    private func summarize(_ results: [ClusterResult]) {
        Self.say("")
        Self.say("Median across rounds (CPU per request: medians of the runs' figures)")
        Self.say(pad("target", 9) + pad("workload", 14) + pad("per second", 12) + pad("svcd µs/req", 12) + pad("pg µs/req", 10) + pad("svcd+pg µs/req", 15) + "client µs/req")
        var keys: [String] = []
        for result in results where !keys.contains(result.target + "|" + result.workload) { keys.append(result.target + "|" + result.workload) }
        for key in keys {
            let runs = results.filter { $0.target + "|" + $0.workload == key }
            let first = runs[0]
            Self.say(
                pad(first.target, 9) + pad(first.workload, 14) + pad(format(median(runs.map(\.perSecond))), 12)
                    + pad(String(format: "%.1f", median(runs.map(\.svcdMicros))), 12) + pad(String(format: "%.1f", median(runs.map(\.postgresMicros))), 10)
                    + pad(String(format: "%.1f", median(runs.map { $0.svcdMicros + $0.postgresMicros })), 15)
                    + String(format: "%.1f", median(runs.map(\.clientMicros)))
            )
        }
        let ratios = referenceRatios(results)
        if !ratios.isEmpty {
            Self.say("")
            Self.say("svcd ÷ pgbench on the same server (\(inFlight) in flight / clients; per round: against that round's pgbench run)")
            for ratio in ratios { Self.say("  " + ratio.line) }
        }
        Self.say("")
        for goal in goals(results, ratios: ratios) { Self.say(goal) }
    }

    /// One workload through some instances against its pgbench reference.
    private struct ReferenceRatio {
        let workload: ClusterWorkload
        let instances: Int
        let ratio: Double
        let line: String
    }

    private func serviceRuns(_ results: [ClusterResult], _ workload: ClusterWorkload, instances: Int) -> [ClusterResult] {
        results.filter { $0.target == "\(instances) svcd" && $0.workload == workload.useCase.rawValue }
    }

    /// Each measured workload's median rate over its reference's, for every instance count.
    private func referenceRatios(_ results: [ClusterResult]) -> [ReferenceRatio] {
        var ratios: [ReferenceRatio] = []
        for workload in selectedWorkloads {
            let script = workload.pgbenchReference
            let references = results.filter { $0.target == "pgbench" && $0.workload == script.label }
            guard !references.isEmpty else { continue }
            let referenceMedian = median(references.map(\.perSecond))
            for count in instanceCounts {
                let runs = serviceRuns(results, workload, instances: count)
                guard !runs.isEmpty else { continue }
                let paired = runs.compactMap { run in references.first { $0.round == run.round }.map { run.perSecond / $0.perSecond } }
                let rate = median(runs.map(\.perSecond))
                let ratio = rate / referenceMedian
                let line = "\(workload.useCase.rawValue) through \(count) svcd: \(format(rate))/s vs pgbench \(script.label) \(format(referenceMedian))/s → "
                    + String(format: "%.2f", ratio) + "× (per round: \(paired.map { String(format: "%.2f", $0) }.joined(separator: ", ")))"
                ratios.append(ReferenceRatio(workload: workload, instances: count, ratio: ratio, line: line))
            }
        }
        return ratios
    }

    /// The goals the runs measured, each with its figure and verdict.
    private func goals(_ results: [ClusterResult], ratios: [ReferenceRatio]) -> [String] {
        func verdict(_ met: Bool) -> String { met ? "met" : "missed" }
        var lines: [String] = []
        let most = instanceCounts.max() ?? 1
        let least = instanceCounts.min() ?? 1
        let ratioGoals: [(ClusterWorkload, Int, Double)] = [(.register, most, 0.5), (.read, 1, 0.7), (.order, 1, 1.0)]
        for (workload, count, floor) in ratioGoals {
            guard let ratio = ratios.first(where: { $0.workload == workload && $0.instances == count }) else { continue }
            lines.append(
                "Goal: \(workload.useCase.rawValue) through \(count) svcd ≥ \(String(format: "%.1f", floor)) × pgbench \(workload.pgbenchReference.rawValue): "
                    + String(format: "%.2f", ratio.ratio) + "× → \(verdict(ratio.ratio >= floor))"
            )
        }
        for (workload, ceiling) in [(ClusterWorkload.read, 25.0), (.order, 120.0)] {
            let runs = serviceRuns(results, workload, instances: 1)
            guard !runs.isEmpty else { continue }
            let micros = median(runs.map(\.svcdMicros))
            lines.append(
                "Goal: svcd CPU per \(workload.useCase.rawValue) (1 svcd) ≤ \(Int(ceiling)) µs: " + String(format: "%.1f", micros) + " µs → \(verdict(micros <= ceiling))"
            )
        }
        if most > least {
            for workload in selectedWorkloads {
                let many = serviceRuns(results, workload, instances: most), one = serviceRuns(results, workload, instances: least)
                guard !many.isEmpty, !one.isEmpty else { continue }
                let ratio = median(many.map(\.perSecond)) / median(one.map(\.perSecond))
                lines.append(
                    "Goal: \(workload.useCase.rawValue) through \(most) svcd no slower in total than \(least): " + String(format: "%.2f", ratio) + "× → \(verdict(ratio >= 1))"
                )
            }
        }
        return lines
    }
}

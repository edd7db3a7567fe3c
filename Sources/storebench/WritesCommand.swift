import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging
import Persistence
import ServiceApp
import Synchronization
import Transport
import WireJSON
import WireContract

/// Durable writes through the service against raw SQLite (one commit per write, and batched)
/// and Redis with `appendfsync always`.
struct WritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writes",
        abstract: "Pipelined RegisterUser and SaveFavoriteRestaurant through svcd vs raw SQLite and Redis.",
        discussion: """
            Per round: raw SQLite users one row per commit, raw SQLite users --in-flight rows per \
            commit, service RegisterUser, Redis SET (appendfsync always; skipped when Redis is not \
            installed), raw SQLite favorites --in-flight rows per commit, service \
            SaveFavoriteRestaurant. The service runs in this process on SQLite in a temporary \
            directory (WAL, synchronous=FULL, group commit), seeded with the sample data; the raw \
            runs insert the same rows with the same settings. Goals: ≥ 20,000 durable writes/s \
            through the service with 64 in flight, and RegisterUser ≥ 6× raw SQLite committing \
            each row on its own.
            """
    )

    @Option(name: .long, help: "Requests kept in flight (and rows per batched raw transaction, and Redis clients).")
    var inFlight: Int = 64

    @Option(name: .long, help: "Seconds per run.")
    var seconds: Double = 3

    @Option(name: .long, help: "Rounds.")
    var rounds: Int = 3

    @Flag(name: .long, help: "Skip the raw SQLite and Redis runs (e.g. to profile the service alone).")
    var skipRaw = false

    @Flag(name: .long, help: "Skip the Redis runs.")
    var skipRedis = false

    @Flag(name: .long, help: "Skip the SaveFavoriteRestaurant runs (e.g. to profile RegisterUser alone).")
    var skipFavorites = false

    @Flag(name: .long, help: "Write events nowhere (as svcd --benchmark-without-events), to see what the event log costs.")
    var withoutEvents = false

    func validate() throws {
        guard (1...4096).contains(inFlight) else { throw ValidationError("--in-flight must be 1…4096") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be above 0 and at most 600") }
        guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be 1…50") }
    }

    /// Rates of every run, by target, in round order.
    private struct Rates {
        var rawUsersPerWrite: [Double] = []
        var rawUsersBatched: [Double] = []
        var serviceUsers: [Double] = []
        var serviceUsersCPU: [Double] = []
        var redis: [Double] = []
        var redisCPU: [Double] = []
        var rawFavorites: [Double] = []
        var serviceFavorites: [Double] = []
        var serviceFavoritesCPU: [Double] = []
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        var configuration = ServiceConfiguration()
        configuration.dataDirectory = directory + "/service"
        configuration.portBase = 0
        configuration.seedSample = true
        configuration.recordsEvents = !withoutEvents
        let service = try await buildService(configuration: configuration, logger: Logger(label: "storebench"))
        let running = Task { try await service.run() }
        let raw = RawSQLiteCeiling(directory: directory, seconds: seconds)
        let redis = skipRaw || skipRedis ? nil : try await RedisReference.start(directory: directory + "/redis", clients: inFlight, seconds: seconds)
        defer { redis?.stop() }
        let registerAddress = service.useCaseAddresses[.registerUser]!
        let favoriteAddress = service.useCaseAddresses[.saveFavoriteRestaurant]!
        let registered = Mutex<[String]>([])

        print("storebench writes: durable writes through svcd (SQLite, WAL, synchronous=FULL, group commit) vs raw SQLite and Redis (appendfsync always)")
        print("\(ProcessInfo.processInfo.activeProcessorCount) cores, \(inFlight) in flight / rows per batched raw commit / Redis clients, \(seconds) s per run, \(rounds) rounds")
        print("CPU µs/write: the service's threads in this process (not the load client's), or the Redis server's")
        print("")
        print(pad("round", 6) + pad("target", 30) + pad("writes/s", 12) + pad("p50 µs", 10) + pad("p99 µs", 10) + pad("CPU µs/write", 14) + pad("commits", 9) + pad("writes/commit", 14) + "errors")
        var rates = Rates()
        for round in 1...rounds {
            if !skipRaw {
                let perWrite = try await raw.users(round: round, rowsPerCommit: 1)
                rates.rawUsersPerWrite.append(perWrite)
                print(pad("\(round)", 6) + pad("raw SQLite users, 1/commit", 30) + pad(format(perWrite), 12))
                let batched = try await raw.users(round: round, rowsPerCommit: inFlight)
                rates.rawUsersBatched.append(batched)
                print(pad("\(round)", 6) + pad("raw SQLite users, \(inFlight)/commit", 30) + pad(format(batched), 12))
            }

            let before = service.storeStatistics ?? GroupCommitStatistics()
            let cpuBefore = ThreadCPU.snapshot()
            let users = try await PipelinedWriter(
                address: registerAddress, inFlight: inFlight, seconds: seconds,
                params: { #"{"\#(WireMember.name.name)":"Bench User","\#(WireMember.email.name)":"bench-\#(round)-\#($0)@example.com"}"# },
                onResult: { result in
                    if let id = result[WireMember.user.name]?[WireMember.id.name]?.stringValue { registered.withLock { $0.append(id) } }
                }
            ).run()
            rates.serviceUsers.append(users.perSecond)
            rates.serviceUsersCPU.append(printServiceRow(round, "service RegisterUser", users, cpuBefore, before, service.storeStatistics))

            if let redis {
                let outcome = try await redis.run()
                rates.redis.append(outcome.perSecond)
                rates.redisCPU.append(outcome.serverCPUMicrosPerWrite)
                print(
                    pad("\(round)", 6) + pad("Redis SET, fsync always", 30) + pad(format(outcome.perSecond), 12)
                        + pad(String(format: "%.0f", outcome.p50Micros), 10) + pad(String(format: "%.0f", outcome.p99Micros), 10)
                        + pad(String(format: "%.1f", outcome.serverCPUMicrosPerWrite), 14)
                )
            }

            if skipFavorites { continue }
            if !skipRaw {
                let rawFavoriteRate = try await raw.favorites(round: round, rowsPerCommit: inFlight)
                rates.rawFavorites.append(rawFavoriteRate)
                print(pad("\(round)", 6) + pad("raw SQLite favorites, \(inFlight)/c.", 30) + pad(format(rawFavoriteRate), 12))
            }

            // Distinct (user, restaurant) pairs: 100 per user (the cap), users not used before.
            let userIds = registered.withLock { $0 }
            let firstUser = (round - 1) * userIds.count / rounds
            let favoritesBefore = service.storeStatistics ?? GroupCommitStatistics()
            let favoritesCPUBefore = ThreadCPU.snapshot()
            let favorites = try await PipelinedWriter(
                address: favoriteAddress, inFlight: inFlight, seconds: seconds,
                params: { sequence in
                    let user = userIds[(firstUser + sequence / 100) % userIds.count]
                    let restaurant = String(format: "r-%06d", 1 + sequence % 100 + (sequence / 100) % 200)
                    return #"{"\#(WireMember.userId.name)":"\#(user)","\#(WireMember.restaurantId.name)":"\#(restaurant)"}"#
                },
                onResult: { _ in }
            ).run()
            rates.serviceFavorites.append(favorites.perSecond)
            rates.serviceFavoritesCPU.append(
                printServiceRow(round, "service SaveFavorite", favorites, favoritesCPUBefore, favoritesBefore, service.storeStatistics)
            )
        }
        printSummary(rates)

        await service.triggerGracefulShutdown()
        try await running.value
    }

    /// Prints one service run's row and where its CPU went; returns its CPU µs per write.
    private func printServiceRow(
        _ round: Int, _ name: String, _ outcome: PipelinedWriter.Outcome, _ cpuBefore: ThreadCPU,
        _ before: GroupCommitStatistics, _ after: GroupCommitStatistics?
    ) -> Double {
        let after = after ?? before
        let commits = after.commits - before.commits
        let writes = after.writes - before.writes
        let errors = outcome.errors.isEmpty ? "0" : outcome.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
        let byThread = outcome.serviceCPU(since: cpuBefore)
        let perWrite = { (nanoseconds: UInt64) in outcome.ok > 0 ? Double(nanoseconds) / 1000 / Double(outcome.ok) : 0 }
        let cpu = perWrite(byThread.reduce(0) { $0 + $1.nanoseconds })
        print(
            pad("\(round)", 6) + pad(name, 30) + pad(format(outcome.perSecond), 12)
                + pad(String(format: "%.0f", percentile(outcome.latenciesMicros, 50)), 10)
                + pad(String(format: "%.0f", percentile(outcome.latenciesMicros, 99)), 10)
                + pad(String(format: "%.1f", cpu), 14)
                + pad("\(commits)", 9) + pad(commits > 0 ? String(format: "%.1f", Double(writes) / Double(commits)) : "-", 14) + errors
        )
        let shown = byThread.filter { perWrite($0.nanoseconds) >= 0.05 }
        print("      CPU µs/write by thread: " + shown.map { "\($0.name) \(String(format: "%.1f", perWrite($0.nanoseconds)))" }.joined(separator: ", "))
        return cpu
    }

    private func printSummary(_ rates: Rates) {
        func ratio(_ service: [Double], _ reference: [Double]) -> String {
            reference.isEmpty ? "-" : String(format: "%.2f×", median(service) / median(reference))
        }
        print("")
        print("Median across rounds")
        print("  RegisterUser:           service \(format(median(rates.serviceUsers)))/s, \(String(format: "%.1f", median(rates.serviceUsersCPU))) CPU µs/write")
        if !rates.rawUsersPerWrite.isEmpty {
            print("    raw SQLite, 1 row/commit:            \(pad(format(median(rates.rawUsersPerWrite)) + "/s", 10)) service ÷ it \(ratio(rates.serviceUsers, rates.rawUsersPerWrite))")
            print("    raw SQLite, \(pad("\(inFlight) rows/commit:", 25)) \(pad(format(median(rates.rawUsersBatched)) + "/s", 10)) service ÷ it \(ratio(rates.serviceUsers, rates.rawUsersBatched))")
        }
        if !rates.redis.isEmpty {
            print("    Redis SET, appendfsync always:       \(pad(format(median(rates.redis)) + "/s", 10)) service ÷ it \(ratio(rates.serviceUsers, rates.redis)), Redis \(String(format: "%.1f", median(rates.redisCPU))) CPU µs/write")
        }
        guard !rates.serviceFavorites.isEmpty else { return printGoals(rates) }
        print("  SaveFavoriteRestaurant: service \(format(median(rates.serviceFavorites)))/s, \(String(format: "%.1f", median(rates.serviceFavoritesCPU))) CPU µs/write")
        if !rates.rawFavorites.isEmpty {
            print("    raw SQLite, \(pad("\(inFlight) rows/commit:", 25)) \(pad(format(median(rates.rawFavorites)) + "/s", 10)) service ÷ it \(ratio(rates.serviceFavorites, rates.rawFavorites))")
        }
        printGoals(rates)
    }

    private func printGoals(_ rates: Rates) {
        let rateMet = median(rates.serviceUsers) >= 20_000 && (rates.serviceFavorites.isEmpty || median(rates.serviceFavorites) >= 20_000)
        print("Goal: ≥ 20,000 durable writes/s through the service with \(inFlight) in flight → \(rateMet ? "met" : "missed")")
        if !rates.rawUsersPerWrite.isEmpty {
            let multiple = median(rates.serviceUsers) / median(rates.rawUsersPerWrite)
            print("Goal: RegisterUser ≥ 6× raw SQLite committing each row on its own → \(String(format: "%.2f", multiple))×, \(multiple >= 6 ? "met" : "missed")")
        }
    }
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func format(_ value: Double) -> String {
    let number = Int(value.rounded())
    var digits = String(number)
    var groups: [String] = []
    while digits.count > 3 {
        groups.insert(String(digits.suffix(3)), at: 0)
        digits = String(digits.dropLast(3))
    }
    groups.insert(digits, at: 0)
    return groups.joined(separator: ",")
}

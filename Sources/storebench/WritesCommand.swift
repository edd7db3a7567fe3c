import ArgumentParser
import Foundation
import Logging
import Persistence
import ServiceApp
import Synchronization
import Transport
import WireJSON

/// Durable writes through the service against the raw SQLite ceiling.
struct WritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writes",
        abstract: "Pipelined RegisterUser and SaveFavoriteRestaurant through svcd vs raw SQLite batched inserts.",
        discussion: """
            Per round: raw users, service RegisterUser, raw favorites, service SaveFavoriteRestaurant. \
            The service runs in this process on SQLite in a temporary directory (WAL, synchronous=FULL, \
            group commit), seeded with the sample data; the raw ceiling inserts the same rows with the \
            same settings in transactions of --in-flight rows. Goal: ≥ 20,000 durable writes/s through \
            the service with 64 in flight.
            """
    )

    @Option(name: .long, help: "Requests kept in flight (and rows per raw transaction).")
    var inFlight: Int = 64

    @Option(name: .long, help: "Seconds per run.")
    var seconds: Double = 3

    @Option(name: .long, help: "Rounds.")
    var rounds: Int = 3

    @Flag(name: .long, help: "Skip the raw SQLite runs (e.g. to profile the service alone).")
    var skipRaw = false

    func validate() throws {
        guard (1...4096).contains(inFlight) else { throw ValidationError("--in-flight must be 1…4096") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be above 0 and at most 600") }
        guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be 1…50") }
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
        let service = try await buildService(configuration: configuration, logger: Logger(label: "storebench"))
        let running = Task { try await service.run() }
        let raw = RawSQLiteCeiling(directory: directory, batch: inFlight, seconds: seconds)
        let registerAddress = service.useCaseAddresses[.registerUser]!
        let favoriteAddress = service.useCaseAddresses[.saveFavoriteRestaurant]!
        let registered = Mutex<[String]>([])

        print("storebench writes: durable writes through svcd (SQLite, WAL, synchronous=FULL, group commit) vs raw SQLite")
        print("\(ProcessInfo.processInfo.activeProcessorCount) cores, \(inFlight) in flight / rows per raw transaction, \(seconds) s per run, \(rounds) rounds")
        print("")
        print(pad("round", 6) + pad("target", 26) + pad("writes/s", 12) + pad("p50 µs", 10) + pad("p99 µs", 10) + pad("commits", 9) + pad("writes/commit", 14) + "errors")
        var rawUsers: [Double] = [], serviceUsers: [Double] = [], rawFavorites: [Double] = [], serviceFavorites: [Double] = []
        for round in 1...rounds {
            if !skipRaw {
                let rawUserRate = try await raw.users(round: round)
                rawUsers.append(rawUserRate)
                print(pad("\(round)", 6) + pad("raw SQLite users", 26) + pad(format(rawUserRate), 12))
            }

            let before = service.storeStatistics ?? GroupCommitStatistics()
            let users = try await PipelinedWriter(
                address: registerAddress, inFlight: inFlight, seconds: seconds,
                params: { #"{"name":"Bench User","email":"bench-\#(round)-\#($0)@example.com"}"# },
                onResult: { result in
                    if let id = result["user"]?["id"]?.stringValue { registered.withLock { $0.append(id) } }
                }
            ).run()
            serviceUsers.append(users.perSecond)
            printServiceRow(round, "service RegisterUser", users, before, service.storeStatistics)

            if !skipRaw {
                let rawFavoriteRate = try await raw.favorites(round: round)
                rawFavorites.append(rawFavoriteRate)
                print(pad("\(round)", 6) + pad("raw SQLite favorites", 26) + pad(format(rawFavoriteRate), 12))
            }

            // Distinct (user, restaurant) pairs: 100 per user (the cap), users not used before.
            let userIds = registered.withLock { $0 }
            let firstUser = (round - 1) * userIds.count / rounds
            let favoritesBefore = service.storeStatistics ?? GroupCommitStatistics()
            let favorites = try await PipelinedWriter(
                address: favoriteAddress, inFlight: inFlight, seconds: seconds,
                params: { sequence in
                    let user = userIds[(firstUser + sequence / 100) % userIds.count]
                    let restaurant = String(format: "r-%06d", 1 + sequence % 100 + (sequence / 100) % 200)
                    return #"{"userId":"\#(user)","restaurantId":"\#(restaurant)"}"#
                },
                onResult: { _ in }
            ).run()
            serviceFavorites.append(favorites.perSecond)
            printServiceRow(round, "service SaveFavorite", favorites, favoritesBefore, service.storeStatistics)
        }

        print("")
        print("Median across rounds")
        let userRatio = rawUsers.isEmpty ? 0 : median(serviceUsers) / median(rawUsers)
        let favoriteRatio = rawFavorites.isEmpty ? 0 : median(serviceFavorites) / median(rawFavorites)
        print("  RegisterUser:           service \(format(median(serviceUsers)))/s, raw SQLite \(format(median(rawUsers)))/s, ratio \(String(format: "%.2f", userRatio))×")
        print("  SaveFavoriteRestaurant: service \(format(median(serviceFavorites)))/s, raw SQLite \(format(median(rawFavorites)))/s, ratio \(String(format: "%.2f", favoriteRatio))×")
        let met = median(serviceUsers) >= 20_000 && median(serviceFavorites) >= 20_000
        print("Goal: ≥ 20,000 durable writes/s through the service with \(inFlight) in flight → \(met ? "met" : "missed")")

        await service.triggerGracefulShutdown()
        try await running.value
    }

    private func printServiceRow(_ round: Int, _ name: String, _ outcome: PipelinedWriter.Outcome, _ before: GroupCommitStatistics, _ after: GroupCommitStatistics?) {
        let after = after ?? before
        let commits = after.commits - before.commits
        let writes = after.writes - before.writes
        let errors = outcome.errors.isEmpty ? "0" : outcome.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
        print(
            pad("\(round)", 6) + pad(name, 26) + pad(format(outcome.perSecond), 12)
                + pad(String(format: "%.0f", percentile(outcome.latenciesMicros, 50)), 10)
                + pad(String(format: "%.0f", percentile(outcome.latenciesMicros, 99)), 10)
                + pad("\(commits)", 9) + pad(commits > 0 ? String(format: "%.1f", Double(writes) / Double(commits)) : "-", 14) + errors
        )
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

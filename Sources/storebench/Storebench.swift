import ArgumentParser

/// `storebench`: measurements of the durable store through the service.
///
/// - `writes`: pipelined RegisterUser and SaveFavoriteRestaurant through an in-process svcd on
///   SQLite, against the raw SQLite ceiling for the same rows, in alternating runs.
/// - `startup`: builds a large store (100,000 restaurants, 1,000,000 reviews by default), then
///   measures svcd's time to ready, its memory and the latency of the listing queries.
@main
struct Storebench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storebench",
        abstract: "Benchmarks of svcd's durable SQLite store.",
        subcommands: [WritesCommand.self, StartupCommand.self]
    )
}

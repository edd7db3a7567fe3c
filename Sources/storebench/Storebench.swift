import ArgumentParser

/// `storebench`: measurements of the durable store through the service.
///
/// - `writes`: pipelined RegisterUser and SaveFavoriteRestaurant through an in-process svcd on
///   SQLite, against the raw SQLite ceiling for the same rows, in alternating runs.
/// - `startup`: builds a large store (100,000 restaurants, 1,000,000 reviews by default), then
///   measures svcd's time to ready, its memory and the latency of the listing queries.
/// - `cluster`: RegisterUser, PlaceOrder and GetRestaurant through 1 and 3 svcd on one
///   PostgreSQL server against pgbench's one-INSERT transactions on that server.
/// - `events`: durable writes with the event log vs without it, on SQLite and on PostgreSQL,
///   and commit → live-stream latency.
@main
struct Storebench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storebench",
        abstract: "Benchmarks of svcd's durable stores (SQLite, PostgreSQL).",
        subcommands: [WritesCommand.self, StartupCommand.self, ClusterCommand.self, EventsCommand.self]
    )
}

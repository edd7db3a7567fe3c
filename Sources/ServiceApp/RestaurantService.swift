import Foundation
import Logging
import Persistence
import ServiceLifecycle
import Transport
import WireContract
import ZeroMQ

/// The running service as built by `buildService(configuration:)`: bound endpoints inside one
/// `ServiceGroup` that drains on SIGTERM/SIGINT.
public final class RestaurantService: Sendable {
    /// Use case → bound address.
    public let useCaseAddresses: [UseCaseName: String]
    /// The use-case endpoints, in endpoint order.
    public let endpoints: [UseCaseEndpoint]
    /// The live event stream.
    public let eventStream: EventStreamEndpoint
    /// Drain / resume switch for every use case.
    public let availability: ServiceAvailability
    /// Where the service keeps its files.
    public let dataDirectory: String

    private let store: ServiceStore
    private let context: ZMQContext
    private let group: ServiceGroup
    private let lock: DataDirectoryLock

    init(
        useCaseAddresses: [UseCaseName: String], eventStream: EventStreamEndpoint, endpoints: [UseCaseEndpoint], availability: ServiceAvailability,
        dataDirectory: String,
        store: ServiceStore, context: ZMQContext, group: ServiceGroup, lock: DataDirectoryLock
    ) {
        self.lock = lock
        self.store = store
        self.useCaseAddresses = useCaseAddresses
        self.endpoints = endpoints
        self.eventStream = eventStream
        self.availability = availability
        self.dataDirectory = dataDirectory
        self.context = context
        self.group = group
    }

    /// Serves until a shutdown signal (or `triggerGracefulShutdown()`), drains, and returns once
    /// every socket is closed, the ZeroMQ context is terminated and the store is closed (every
    /// answered write was durable already; closing SQLite checkpoints the WAL, closing PostgreSQL
    /// closes the connection pool).
    public func run() async throws {
        defer {
            EndpointsFile.remove(from: dataDirectory, ifWrittenBy: ProcessInfo.processInfo.processIdentifier)
            // Last: another svcd may take the directory only once this one is done with it.
            lock.release()
        }
        do {
            try await group.run()
        } catch {
            context.terminate()
            try? await store.close()
            throw error
        }
        context.terminate()
        try await store.close()
    }

    /// How the store grouped writes into commits so far (`nil` unless the store is SQLite).
    public var storeStatistics: GroupCommitStatistics? { store.commitStatistics }

    /// Writes a consistent copy of the store to `path` (absolute, must not exist yet). Only the
    /// SQLite store can; the others throw ``BackupUnavailable``.
    public func backup(to path: String) async throws {
        try await store.backup(to: path)
    }

    /// Starts the same graceful shutdown a SIGTERM would.
    public func triggerGracefulShutdown() async {
        await group.triggerGracefulShutdown()
    }
}

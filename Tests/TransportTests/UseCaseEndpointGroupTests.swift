import Foundation
import Logging
import ServiceLifecycle
import SvcdTestSupport
import Synchronization
import Testing
import Transport
import WireContract
import WireTestSupport
import ZeroMQ

/// Whether something accepts TCP connections on `port` of the loopback address. A closed port
/// refuses at once, so this needs no timeout of its own.
private func acceptsConnections(port: Int) -> Bool {
    guard let socket = try? LoopbackSocket.connected(to: "127.0.0.1", port: port, timeout: 1) else { return false }
    socket.close()
    return true
}

/// The port of a bound `tcp://host:port` address.
private func port(of address: String) throws -> Int {
    try #require(address.split(separator: ":").last.flatMap { Int($0) }, "no port in \(address)")
}

/// ``UseCaseEndpointGroup``: the endpoints of one service stop side by side at a graceful
/// shutdown, not one after another.
@Suite struct UseCaseEndpointGroupTests {
    /// One endpoint holds a request its use case has not finished; at the shutdown the other
    /// closes at once, while the busy one keeps its socket until the request is answered. Run as
    /// separate services of a `ServiceGroup`, the other would wait for the busy one to finish.
    @Test func aBusyEndpointDoesNotHoldTheOthersOpenAtShutdown() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let availability = ServiceAvailability()
        let logger = Logger(label: "UseCaseEndpointGroupTests")
        func endpoint(_ name: UseCaseName, _ handle: nonisolated(nonsending) @escaping @Sendable () async -> Void) throws -> UseCaseEndpoint {
            let route = UseCaseRoute(name: name, path: .inline) { _, _ in
                await handle()
                return .favoriteCount(1)
            }
            // The held request must reach its handler however busy the machine (the tests run
            // in parallel): no queue-time refusal.
            var configuration = EndpointConfiguration()
            configuration.queueTimeTarget = .seconds(60)
            return try UseCaseEndpoint(
                route: route, address: "tcp://127.0.0.1:*", context: context, configuration: configuration,
                availability: availability, logger: logger)
        }
        let idle = try endpoint(.getUserProfile) {}
        // Set when the held request's handler runs: until then the request may still be queued,
        // and on a busy machine wait past the queue-time target (answered `overloaded`).
        let handling = Atomic<Bool>(false)
        let busy = try endpoint(.listRestaurants) {
            handling.store(true, ordering: .releasing)
            var iterator = release.makeAsyncIterator()
            _ = await iterator.next()
        }
        let idleAddress = try await idle.start()
        let busyAddress = try await busy.start()
        // The busy endpoint last, as a ServiceGroup would signal it first.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [ServiceGroupConfiguration.ServiceConfiguration(service: UseCaseEndpointGroup([idle, busy]))], logger: logger))
        let running = Task { try await group.run() }

        func expectIdleClosesFirst() async throws {
            let reply = Task {
                try await withClient(.dealer, busyAddress, receiveTimeout: 20_000) { client in
                    try client.send(body: request(id: "held"))
                    return try client.receiveReply()
                }
            }
            #expect(await waitUntil(timeout: 10) { handling.load(ordering: .acquiring) }, "the busy endpoint's handler holds the request")
            #expect(busy.counters.inFlight == 1)
            await group.triggerGracefulShutdown()

            let idlePort = try port(of: idleAddress)
            #expect(await waitUntil(timeout: 10) { !acceptsConnections(port: idlePort) }, "the idle endpoint closed while the other still drains")
            #expect(acceptsConnections(port: try port(of: busyAddress)), "the busy endpoint stays open until its request is answered")
            #expect(busy.counters.inFlight == 1)

            releaseSignal.finish()
            let answered = try await reply.value
            #expect(answered?.id == "held")
            #expect(answered?.ok == true)
        }
        do {
            try await expectIdleClosesFirst()
        } catch {
            // Stop everything before the context is terminated, which waits for every socket.
            releaseSignal.finish()
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        try await running.value
        #expect(!acceptsConnections(port: try port(of: busyAddress)))
    }
}

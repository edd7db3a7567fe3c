import Dispatch
import Synchronization
import Logging
import ServiceLifecycle
import SvcdTestSupport
import Testing
import Transport
import WireContract
import WireTestSupport
import ZeroMQ

/// Overload bounded by time before a read queues: a request that finds its use case's read lane
/// behind by more than the queue-time target is answered `overloaded` at once, without queueing
/// (it would wait longer still), and the request queued before it is refused at its turn.
@Suite struct ReadLaneAdmissionTests {
    @Test func aReadThatFindsItsLaneBehindPastTheTargetIsRefusedWithoutQueueing() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        // One thread, held by a job of another lane for as long as the test needs.
        let executor = BlockingReadExecutor(threads: 1, named: "admission-read") {}
        defer { executor.close() }
        let holder = DispatchSemaphore(value: 0)
        let held = Task(executorPreference: executor.lane(named: "holder")) { holder.wait() }
        let ran = RunCount()
        let route = UseCaseRoute(name: .getUserProfile, path: .waitingRead) { _, _ in
            ran.count.add(1, ordering: .relaxed)
            return .favoriteCount(1)
        }
        var configuration = EndpointConfiguration()
        configuration.queueTimeTarget = .milliseconds(100)
        let endpoint = try UseCaseEndpoint(
            route: route, address: "tcp://127.0.0.1:*", context: context, configuration: configuration, availability: ServiceAvailability(),
            logger: Logger(label: "ReadLaneAdmissionTests.endpoint"), readExecutor: executor)
        let address = try await endpoint.start()
        let logger = Logger(label: "ReadLaneAdmissionTests")
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [ServiceGroupConfiguration.ServiceConfiguration(service: UseCaseEndpointGroup([endpoint]))], logger: logger))
        let serving = Task { try await group.run() }
        let lane = executor.lane(named: UseCaseName.getUserProfile.rawValue)

        var released = false
        do {
            let queued = Task { try await call(address, request(id: "queued"), receiveTimeout: 20_000) }
            #expect(await waitUntil(timeout: 10) { lane.oldestWait > .milliseconds(100) }, "the first request waits in its lane past the target")
            // The lane's only thread is still held: a reply now cannot come from a task that queued.
            let refused = try await call(address, request(id: "late"), receiveTimeout: 10_000)
            #expect(refused.code == "overloaded", "\(refused)")
            #expect(refused.message?.contains("ms behind, over the queue-time target of 100 ms") == true, "\(refused)")
            #expect(ran.count.load(ordering: .relaxed) == 0)

            holder.signal()
            await held.value
            released = true
            let refusedAtItsTurn = try await queued.value
            #expect(refusedAtItsTurn.code == "overloaded", "\(refusedAtItsTurn)")
            #expect(refusedAtItsTurn.message?.contains("for its turn, over the queue-time target of 100 ms") == true, "\(refusedAtItsTurn)")
            #expect(ran.count.load(ordering: .relaxed) == 0, "the queued one waited past the target too: refused at its turn, unrun")
            #expect(lane.oldestWait == .zero)
            // A request that finds the lane empty runs.
            let served = try await call(address, request(id: "prompt"), receiveTimeout: 10_000)
            #expect(served.ok == true, "\(served)")
            #expect(ran.count.load(ordering: .relaxed) == 1)
        } catch {
            // Stop everything before the context is terminated, which waits for every socket.
            if !released { holder.signal() }
            await group.triggerGracefulShutdown()
            _ = try? await serving.value
            throw error
        }
        await group.triggerGracefulShutdown()
        try await serving.value
    }
}

/// How many times the route ran.
private final class RunCount: Sendable {
    let count = Atomic<Int>(0)
}

import Foundation
import Synchronization
import Testing
import WireContract
import WireJSON
import ZeroMQ
@testable import LoadEngine

/// The pipelined client against small in-process servers: a ROUTER on a thread of its own that
/// echoes, or answers like the service, until the test tells it to stop.
@Suite("Pipelined client")
struct PipelinedClientTests {
    /// How the test server answers a request body.
    enum Answer: Sendable {
        case echo
        /// `ok` with the id as result, except for the requests `failing` (of the id and the
        /// params' `n`) says: `overloaded`.
        case service(failing: @Sendable (_ id: Int, _ n: Int) -> Bool)
        /// Always an id no request has.
        case stranger
    }

    /// Serves on `endpoint` (inproc, in `context`) until `control` is told to stop; returns the
    /// requests seen. It never stops on its own: a client that starts late (a loaded machine)
    /// still finds it serving.
    static func serve(_ answer: Answer, at endpoint: String, in context: ZMQContext, _ control: ServerControl) async throws -> Int {
        try await DedicatedThread.run(named: "test-server") { () throws -> Int in
            let router = try context.makeSocket(.router)
            defer { router.close() }
            try router.setLinger(0)
            try router.setReceiveTimeout(50)
            _ = try router.bind(endpoint)
            control.bound.store(true, ordering: .releasing)
            var frames: [[UInt8]] = []
            while true {
                guard try router.receiveMultipart(into: &frames) != nil else {
                    if control.stopped.load(ordering: .acquiring) { return control.seen.load(ordering: .relaxed) }
                    continue
                }
                control.seen.add(1, ordering: .relaxed)
                let request = try JSONParser.parse(frames[2])
                let id = request[WireEnvelope.Key.id]?.stringValue ?? ""
                let n = request[WireEnvelope.Key.params]?["n"]?.intValue ?? 0
                let body: [UInt8]
                switch answer {
                case .echo:
                    body = frames[2]
                case .service(let failing):
                    body = failing(Int(id) ?? 0, n) ? Self.failure(id: id, code: .overloaded) : Self.success(id: id, result: ["id": .string(id)])
                case .stranger:
                    body = Self.success(id: "999", result: [:])
                }
                try router.sendMultipart([frames[0], [], body])
            }
        }
    }

    /// A test server's address and controls, handed to the body of `withServer`.
    struct TestServer {
        let endpoint: String
        let context: ZMQContext
        let control: ServerControl
    }

    /// Starts a server answering with `answer` on a fresh inproc endpoint, runs `body` against
    /// it, stops the server (also when `body` throws) and returns how many requests it saw.
    static func withServer(_ answer: Answer, _ body: (TestServer) async throws -> Void) async throws -> Int {
        let context = try ZMQContext()
        defer { context.terminate() }
        let server = TestServer(endpoint: "inproc://pipelined-\(UUID().uuidString)", context: context, control: ServerControl())
        async let served = serve(answer, at: server.endpoint, in: context, server.control)
        do {
            // The client's reply timeout starts with its first request: the server is serving by then.
            let control = server.control
            try await waitUntil { control.bound.load(ordering: .acquiring) }
            try await body(server)
        } catch {
            server.control.stop()
            _ = try? await served
            throw error
        }
        server.control.stop()
        return try await served
    }

    /// Waits, with a 60 s deadline, until `condition` holds. Generous: the wait runs on the
    /// cooperative pool, which the suite's parallel tests keep busy.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not reached within 60 s")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// A success reply as the service writes it: `v`, `id`, `ok`, `result`, in that order.
    static func success(id: String, result: JSONObject) -> [UInt8] {
        JSONValue.object(JSONObject([
            (WireEnvelope.Key.version.name, .int(WireEnvelope.version)), (WireEnvelope.Key.id.name, .string(id)),
            (WireEnvelope.Key.ok.name, .bool(true)), (WireEnvelope.Key.result.name, .object(result)),
        ])).encoded()
    }

    /// A failure reply with `code`.
    static func failure(id: String, code: WireErrorCode) -> [UInt8] {
        let error = JSONObject([(WireEnvelope.Key.code.name, .string(code.rawValue)), (WireEnvelope.Key.message.name, .string("busy"))])
        return JSONValue.object(JSONObject([
            (WireEnvelope.Key.version.name, .int(WireEnvelope.version)), (WireEnvelope.Key.id.name, .string(id)),
            (WireEnvelope.Key.ok.name, .bool(false)), (WireEnvelope.Key.error.name, .object(error)),
        ])).encoded()
    }

    @Test func exactlySoManyRequestsAgainstAnEcho() async throws {
        let served = try await Self.withServer(.echo) { server in
            let client = PipelinedClient(
                endpoint: server.endpoint, context: server.context, server: .echo, slots: 8,
                requests: .samePerSlot { _ in #"{"restaurantId":"r-000042"}"# }, schedule: .requests(200))
            let outcome = try await client.run()
            #expect(outcome.sent == 200)
            #expect(outcome.replies == 200)
            #expect(outcome.failures == 0)
            #expect(outcome.latencies.count == 200)
            #expect(outcome.windowNanoseconds > 0)
        }
        #expect(served == 200)
    }

    @Test func failuresAreCountedByCodeAndSuccessesHandedOn() async throws {
        // Slot 0's replies fail, but not the first reply of the run (request 0, on slot 0).
        let served = try await Self.withServer(.service { slot, sequence in slot == 0 && sequence > 0 }) { server in
            let results = Collected()
            var client = PipelinedClient(
                endpoint: server.endpoint, context: server.context, server: .service, slots: 4,
                requests: .each { slot, sequence in #"{"n":\#(sequence),"s":\#(slot)}"# }, schedule: .requests(100))
            client.onSuccess = { result in results.ids.withLock { $0.append(result["id"]?.stringValue ?? "?") } }
            let outcome = try await client.run()
            #expect(outcome.replies == 100)
            #expect(outcome.failures > 0)
            #expect(outcome.errorCodes == [WireErrorCode.overloaded.rawValue: outcome.failures])
            #expect(results.ids.withLock { $0.count } == outcome.succeeded)
        }
        #expect(served == 100)
    }

    @Test func aPhasedRunCountsOnlyWhileMeasuring() async throws {
        var sent = -1
        let served = try await Self.withServer(.echo) { server in
            let phase = LoadPhase()
            let client = PipelinedClient(
                endpoint: server.endpoint, context: server.context, server: .echo, slots: 4,
                requests: .samePerSlot { _ in "{}" }, schedule: .phased(phase))
            async let outcome = client.run()
            // Declared after the `async let`, so it runs first when a wait below throws: the
            // client stops on its own, and leaving the scope (which awaits it) cannot hang.
            defer { phase.enter(.stopping) }
            // Warm-up replies first, then measuring until the server has seen 20 more requests:
            // with 4 in flight, at least 16 of their replies reached the client while measuring.
            let control = server.control
            try await Self.waitUntil { control.seen.load(ordering: .relaxed) >= 10 }
            phase.enter(.measuring)
            let seenAtStart = control.seen.load(ordering: .relaxed)
            try await Self.waitUntil { control.seen.load(ordering: .relaxed) >= seenAtStart + 20 }
            phase.enter(.stopping)
            let result = try await outcome
            #expect(result.replies > 0)
            #expect(result.sent > result.replies)
            #expect(result.windowNanoseconds == 0)
            sent = result.sent
        }
        #expect(served == sent)
    }

    @Test func aReplyToNoRequestEndsTheRun() async throws {
        _ = try await Self.withServer(.stranger) { server in
            let client = PipelinedClient(
                endpoint: server.endpoint, context: server.context, server: .service, slots: 2,
                requests: .samePerSlot { _ in "{}" }, schedule: .requests(10))
            let failure = await #expect(throws: LoadFailure.self) { try await client.run() }
            #expect(failure?.kind == .serviceError)
        }
    }
}

/// Tells a test server to stop; says when it is bound and counts the requests it saw.
final class ServerControl: Sendable {
    let seen = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let bound = Atomic<Bool>(false)

    func stop() { stopped.store(true, ordering: .releasing) }
}

/// The results a client handed on, collected across threads.
private final class Collected: Sendable {
    let ids = Mutex<[String]>([])
}

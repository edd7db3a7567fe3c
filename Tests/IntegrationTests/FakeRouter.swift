import Foundation
import Synchronization
import Testing
import WireJSON
import ZeroMQ

/// A fake use-case endpoint: a plain ROUTER on its own thread that records the requests it sees
/// and answers request number n (0-based) with `answer(n, requestID)`, or drops it when that
/// returns `nil`.
final class FakeRouter: Sendable {
    private let seen = Mutex<[JSONValue]>([])
    private let stopped = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let answer: @Sendable (Int, JSONValue) -> String?

    init(answer: @escaping @Sendable (Int, String) -> String?) {
        self.answer = { index, envelope in answer(index, envelope["id"]?.stringValue ?? "") }
    }

    private init(answerEnvelope: @escaping @Sendable (Int, JSONValue) -> String?) {
        self.answer = answerEnvelope
    }

    /// A router that answers request number n with `answer(n, envelope)`, from the whole request.
    static func answeringEnvelopes(_ answer: @escaping @Sendable (Int, JSONValue) -> String?) -> FakeRouter {
        FakeRouter(answerEnvelope: answer)
    }

    /// Requests received so far.
    var requests: Int { seen.withLock { $0.count } }

    /// The request envelopes received so far, in arrival order (`null` for a body that is not JSON).
    var envelopes: [JSONValue] { seen.withLock { $0 } }

    /// Binds on an ephemeral port and returns the address.
    func start() async throws -> String {
        try await DedicatedThread.start(named: "fake-router") { [self] () throws -> ((ZMQContext, ZMQSocket), String) in
            do {
                let context = try ZMQContext()
                let socket = try context.makeSocket(.router)
                try socket.setLinger(0)
                try socket.setReceiveTimeout(20)
                return ((context, socket), try socket.bind("tcp://127.0.0.1:*"))
            } catch {
                finished.store(true, ordering: .relaxed)
                throw error
            }
        } serve: { [self] context, socket in
            serve(socket, in: context)
        }
    }

    func stop() async {
        stopped.store(true, ordering: .relaxed)
        while !finished.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Waits until at least `count` requests have arrived (a request a client gave up on may
    /// still be on its way); fails the test after `seconds`.
    func waitForRequests(_ count: Int, timeout seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while requests < count && clock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(requests >= count, "expected \(count) requests within \(seconds) s, saw \(requests)", sourceLocation: sourceLocation)
    }

    private func serve(_ socket: ZMQSocket, in context: ZMQContext) {
        defer { finished.store(true, ordering: .relaxed) }
        var frames: [[UInt8]] = []
        while !stopped.load(ordering: .relaxed) {
            guard (try? socket.receiveMultipart(into: &frames)) ?? nil != nil, frames.count == 3 else { continue }
            let envelope = (try? JSONParser.parse(frames[2])) ?? .null
            let index = seen.withLock { envelopes in
                defer { envelopes.append(envelope) }
                return envelopes.count
            }
            if let reply = answer(index, envelope) {
                try? socket.sendMultipart([frames[0], [], Array(reply.utf8)])
            }
        }
        socket.close()
        context.terminate()
    }
}

let cannedRestaurant = """
    {"id":"r-fake","name":"Fake Diner","cuisine":"Test","rating":4.5,"reviewCount":2,"priceLevel":3,\
    "address":"1 Fake St","latitude":1.5,"longitude":-2.5,"imageUrl":null,"phoneNumber":"+1-555","website":null,\
    "openingHours":["Mon 9-5"]}
    """
let cannedUser = """
    {"id":"u-fake","name":"Fake","email":"fake@example.com","joinedAt":"2026-01-01T00:00:00.000Z",\
    "isActive":true,"subscriptionActiveUntil":null}
    """

func okReply(_ id: String, _ result: String) -> String {
    #"{"v":1,"id":"\#(id)","ok":true,"result":\#(result)}"#
}

func errorReply(_ id: String, _ code: String, message: String = "try again", outcome: String? = nil) -> String {
    let outcomeMember = outcome.map { #","outcome":"\#($0)""# } ?? ""
    return #"{"v":1,"id":"\#(id)","ok":false,"error":{"code":"\#(code)","message":"\#(message)"\#(outcomeMember)}}"#
}

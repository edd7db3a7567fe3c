import Testing
import ZeroMQ

@Suite("Typed errors")
struct ErrorTests {
    @Test("A non-blocking receive with nothing queued throws .again; an expired receive timeout too")
    func againOnEmptyQueue() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.makeTestSocket(.pull, receiveTimeout: 20)
        defer { pull.close() }
        try pull.bind(uniqueInproc("again"))

        #expect(throws: ZMQError.again) { try pull.receive(dontWait: true) }
        #expect(throws: ZMQError.again) { try pull.receiveMultipart(dontWait: true) }
        #expect(throws: ZMQError.again) { try pull.receive() }  // 20 ms receive timeout

        var frames: [[UInt8]] = [bytes("stale")]
        #expect(try pull.receiveMultipart(into: &frames, dontWait: true) == nil)
        #expect(frames == [bytes("stale")], "a failed receive leaves the caller's array alone")

        // Typed throws allow pattern matching on the constants.
        var matched = false
        do throws(ZMQError) {
            _ = try pull.receive(dontWait: true)
        } catch .again {
            matched = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(matched)
    }

    @Test("ROUTER with routerMandatory throws .hostUnreachable for an unknown routing id")
    func hostUnreachable() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let strict = try context.makeTestSocket(.router)
        defer { strict.close() }
        try strict.setRouterMandatory(true)
        try strict.bind(loopbackWildcard)
        #expect(throws: ZMQError.hostUnreachable) {
            try strict.sendMultipart([bytes("nobody"), [], bytes("hello")])
        }

        // Control: without the option the same send is silently dropped.
        let lenient = try context.makeTestSocket(.router)
        defer { lenient.close() }
        try lenient.bind(loopbackWildcard)
        try lenient.sendMultipart([bytes("nobody"), [], bytes("hello")])
    }

    @Test("A thread blocked in receive gets .terminated after context.shutdown()")
    func terminatedAfterShutdown() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = uniqueInproc("eterm")
        let aboutToBlock = Flag()
        let outcome = Shared<Result<ZMQFrame, ZMQError>?>(nil)

        let thread = TestThread {
            do throws(ZMQError) {
                let socket = try context.makeSocket(.pull)
                defer { socket.close() }
                try socket.setLinger(0)
                // If shutdown failed to wake us, the test fails with .again instead of hanging.
                try socket.setReceiveTimeout(10_000)
                try socket.bind(endpoint)
                aboutToBlock.set()
                outcome.set(Result { () throws(ZMQError) in try socket.receive() })
            } catch {
                outcome.set(.failure(error))
            }
        }
        defer { thread.join() }

        #expect(waitUntil { aboutToBlock.isSet })
        context.shutdown()
        thread.join()
        #expect(outcome.value == .failure(.terminated))

        // After shutdown the context refuses new sockets; shutdown is idempotent.
        #expect(throws: ZMQError.terminated) { try context.makeSocket(.pull) }
        context.shutdown()
        #expect(!context.isTerminated)
    }

    @Test("terminate() is idempotent and later makeSocket throws .terminated")
    func terminateIdempotent() throws {
        let context = try ZMQContext(ioThreads: 2)
        #expect(context.ioThreads == 2)
        let socket = try context.makeSocket(.dealer)
        socket.close()
        socket.close()
        #expect(socket.isClosed)
        #expect(throws: ZMQError.notSocket) { try socket.send(bytes("x")) }
        #expect(throws: ZMQError.notSocket) { try socket.linger }
        context.terminate()
        #expect(context.isTerminated)
        context.terminate()
        context.shutdown()
        #expect(throws: ZMQError.terminated) { try context.makeSocket(.dealer) }
    }

    @Test("Errors carry zmq_strerror text and the errno name")
    func descriptions() throws {
        #expect(ZMQError.again.description.contains("EAGAIN"))
        #expect(ZMQError.again.description.contains("Resource temporarily unavailable"))
        #expect(ZMQError.terminated.description.contains("ETERM"))
        #expect(ZMQError.terminated.description.contains("Context was terminated"))
        #expect(ZMQError.hostUnreachable.name == "EHOSTUNREACH")
        #expect(ZMQError(code: 99_999).name == "errno 99999")
        #expect(ZMQError.again != ZMQError.interrupted)

        // A real libzmq failure comes through the funnel with its errno.
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeTestSocket(.pair)
        defer { socket.close() }
        #expect(throws: ZMQError.protocolNotSupported) { try socket.bind("nosuch://x") }
        #expect(throws: ZMQError.invalid) { try socket.connect("tcp://") }
        #expect(throws: ZMQError.noEntry) { try socket.unbind("tcp://127.0.0.1:1") }
    }
}

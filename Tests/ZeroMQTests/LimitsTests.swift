import Testing
import ZeroMQ

@Suite("Limits and shutdown")
struct LimitsTests {
    @Test("maxMessageSize: an over-size message disconnects its peer and the server keeps serving others")
    func maxMessageSizeDropsPeer() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let server = try context.makeTestSocket(.router)
        defer { server.close() }
        try server.setMaxMessageSize(1_000)
        #expect(try server.maxMessageSize == 1_000)
        let monitorEndpoint = uniqueInproc("maxmsg-monitor")
        try server.startMonitor(monitorEndpoint, events: .disconnected)
        let monitor = try context.makeTestSocket(.pair)
        defer { monitor.close() }
        try monitor.connect(monitorEndpoint)
        let endpoint = try server.bind(loopbackWildcard)

        let offender = try context.makeTestSocket(.dealer)
        defer { offender.close() }
        try offender.setRoutingId(bytes("offender"))
        try offender.connect(endpoint)
        try offender.send(pattern(2_000))

        // libzmq drops the connection as soon as it decodes the over-size frame header.
        let event = try monitor.receiveMonitorEvent()
        #expect(event.event == .disconnected)
        #expect(event.endpoint == endpoint)

        let honest = try context.makeTestSocket(.dealer)
        defer { honest.close() }
        try honest.setRoutingId(bytes("honest"))
        try honest.connect(endpoint)
        let fits = pattern(1_000)
        try honest.send(fits)

        let request = try server.receiveMultipart()
        #expect(request == [bytes("honest"), fits])
        try server.sendMultipart([bytes("honest"), bytes("ok")])
        #expect(try honest.receive().bytes == bytes("ok"))

        // The over-size message never reached the application.
        #expect(throws: ZMQError.again) { try server.receive(dontWait: true) }
    }

    /// Connects `push` to `sink`, proves the connection is up with one delivered message,
    /// then queues 64 KiB messages until the queue stays full: the sink never reads, so
    /// its receive queue, both kernel socket buffers and finally `push`'s own queue fill up.
    private func connectAndFill(_ push: ZMQSocket, to sink: ZMQSocket, endpoint: String) throws -> Int {
        try push.setSendHighWaterMark(1)
        try push.connect(endpoint)
        try push.send(bytes("hello"))
        #expect(try sink.receive().bytes == bytes("hello"))

        let chunk = pattern(64 * 1024)
        let poller = ZMQPoller()
        poller.add(push, events: .pollOut)
        var queued = 0
        while queued < 100_000 {
            do throws(ZMQError) {
                try push.send(chunk, dontWait: true)
                queued += 1
            } catch {
                guard error == .again else { throw error }
                // Full for now. It is full for good once libzmq's I/O thread cannot move
                // anything on for a while (it would make the socket writable again).
                if try poller.poll(timeoutMilliseconds: 500) == 0 { return queued }
            }
        }
        return queued
    }

    /// Runs `context.terminate()` on a helper thread; returns the thread and a completion flag.
    private func terminateInBackground(_ context: ZMQContext) -> (TestThread, Flag) {
        let done = Flag()
        let thread = TestThread {
            context.terminate()
            done.set()
        }
        return (thread, done)
    }

    @Test("linger 0: terminate returns in under a second with messages queued to a peer that never reads")
    func lingerZeroTerminatesPromptly() throws {
        let peerContext = try ZMQContext()
        defer { peerContext.terminate() }
        let sink = try peerContext.makeTestSocket(.pull)
        defer { sink.close() }
        try sink.setReceiveHighWaterMark(1)
        let endpoint = try sink.bind(loopbackWildcard)

        let context = try ZMQContext()
        let push = try context.makeSocket(.push)
        #expect(try push.linger == -1, "libzmq's default would make terminate wait forever")
        try push.setLinger(0)
        let queued = try connectAndFill(push, to: sink, endpoint: endpoint)
        #expect(queued >= 1)
        #expect(queued < 100_000, "the never-reading peer must eventually push back")
        push.close()

        let clock = ContinuousClock()
        let start = clock.now
        let (thread, done) = terminateInBackground(context)
        #expect(waitUntil(timeout: .seconds(1)) { done.isSet })
        #expect(clock.now - start < .seconds(1))
        if done.isSet { thread.join() }
    }

    @Test("Control: with the default linger, terminate waits until the queued messages are delivered")
    func defaultLingerWaitsForDelivery() throws {
        let peerContext = try ZMQContext()
        defer { peerContext.terminate() }
        let sink = try peerContext.makeTestSocket(.pull)
        defer { sink.close() }
        try sink.setReceiveHighWaterMark(1)
        let endpoint = try sink.bind(loopbackWildcard)

        let context = try ZMQContext()
        let push = try context.makeSocket(.push)
        let queued: Int
        do {
            queued = try connectAndFill(push, to: sink, endpoint: endpoint)
        } catch {
            // Do not let a failure hang in terminate on the default linger.
            try? push.setLinger(0)
            push.close()
            context.terminate()
            throw error
        }
        #expect(queued >= 1)
        push.close()

        let (thread, done) = terminateInBackground(context)
        // Negative check: terminate must still be blocked while nobody reads.
        #expect(!waitUntil(timeout: .milliseconds(300)) { done.isSet })

        // Now read; terminate completes once everything queued was flushed.
        var received = 0
        let finished = waitUntil(timeout: .seconds(10)) {
            while (try? sink.receive(dontWait: true)) != nil { received += 1 }
            return done.isSet
        }
        #expect(finished)
        guard finished else { return }
        thread.join()
        // Drain what arrived after terminate returned, then check nothing was lost.
        try sink.setReceiveTimeout(100)
        while (try? sink.receive()) != nil { received += 1 }
        #expect(received == queued)
    }
}

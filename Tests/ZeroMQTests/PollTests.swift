import Testing
import ZeroMQ

@Suite("Polling and EventFD")
struct PollTests {
    @Test("An EventFD signalled from another thread wakes a poll with infinite timeout")
    func eventFDWakesInfinitePoll() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let wake = try EventFD()
        defer { wake.close() }
        let endpoint = uniqueInproc("watchdog")
        let pull = try context.makeTestSocket(.pull)
        defer { pull.close() }
        try pull.bind(endpoint)

        let poller = ZMQPoller()
        let socketIndex = poller.add(pull, events: .pollIn)
        let wakeIndex = poller.add(fileDescriptor: wake.fileDescriptor, events: .pollIn)
        #expect(poller.count == 2)

        let polling = Flag()
        let woke = Flag()
        let thread = TestThread {
            _ = waitUntil { polling.isSet }
            try? wake.signal()
            // Watchdog: if the eventfd failed to wake the poll, wake it through the socket so
            // the test fails on the assertions below instead of hanging.
            if !waitUntil(timeout: .seconds(5), { woke.isSet }) {
                guard let push = try? context.makeTestSocket(.push) else { return }
                defer { push.close() }
                try? push.connect(endpoint)
                try? push.send(bytes("watchdog"))
                _ = waitUntil { woke.isSet }  // keep the socket open until the poll returned
            }
        }
        defer { thread.join() }

        polling.set()
        let ready = try poller.poll(timeoutMilliseconds: -1)
        woke.set()
        #expect(ready == 1)
        #expect(poller.returnedEvents(at: wakeIndex).canReceive)
        #expect(!poller.returnedEvents(at: socketIndex).canReceive)

        #expect(try wake.drain() == 1)
        // Drained: the descriptor is no longer readable.
        #expect(try poller.poll(timeoutMilliseconds: 0) == 0)
        #expect(poller.returnedEvents(at: wakeIndex).isEmpty)
    }

    @Test("A socket becomes readable in poll and in ZMQ_EVENTS once a message arrives")
    func socketBecomesReadable() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = uniqueInproc("readable")
        let pull = try context.makeTestSocket(.pull)
        defer { pull.close() }
        try pull.bind(endpoint)
        let push = try context.makeTestSocket(.push)
        defer { push.close() }
        try push.connect(endpoint)

        #expect(try pull.fileDescriptor >= 0)
        #expect(try !pull.events.canReceive)

        let poller = ZMQPoller()
        let pullIndex = poller.add(pull)
        let pushIndex = poller.add(push, events: .pollOut)
        #expect(poller.requestedEvents(at: pushIndex) == .pollOut)

        // Only the push side is ready (it can send).
        #expect(try poller.poll(timeoutMilliseconds: 0) == 1)
        #expect(poller.returnedEvents(at: pushIndex).canSend)
        #expect(poller.returnedEvents(at: pullIndex).isEmpty)

        poller.setEvents([], at: pushIndex)
        try push.send(bytes("ping"))
        #expect(try poller.poll(timeoutMilliseconds: Int(testTimeout)) == 1)
        #expect(poller.returnedEvents(at: pullIndex) == .pollIn)
        #expect(try pull.events.canReceive)
        #expect(try pull.receive().bytes == bytes("ping"))
        #expect(try !pull.events.canReceive)

        // Polling a closed socket is refused instead of handing libzmq a dangling handle.
        pull.close()
        #expect(throws: ZMQError.notSocket) { try poller.poll(timeoutMilliseconds: 0) }
        poller.removeAll()
        #expect(poller.count == 0)
    }

    @Test("EventFD counts signals from many threads, drains to zero and refuses use after close")
    func eventFDSemantics() throws {
        let wake = try EventFD()
        #expect(wake.fileDescriptor >= 0)
        #expect(try wake.drain() == 0)

        let threads = (0..<4).map { _ in
            TestThread {
                for _ in 0..<1_000 { try? wake.signal() }
            }
        }
        threads.forEach { $0.join() }
        #expect(try wake.drain() == 4_000)
        #expect(try wake.drain() == 0)

        wake.close()
        wake.close()
        #expect(wake.fileDescriptor == -1)
        #expect(throws: ZMQError.badFileDescriptor) { try wake.signal() }
        #expect(throws: ZMQError.badFileDescriptor) { try wake.drain() }
    }
}

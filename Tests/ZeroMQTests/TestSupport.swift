import Glibc
import Synchronization
import ZeroMQ

/// A joinable POSIX thread. The module under test is used from dedicated threads, never
/// from Swift concurrency, so the tests do the same.
final class TestThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t
    private var joined = false

    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        self.thread = thread
    }

    /// Waits for the thread to finish. Idempotent.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    /// A thread that was never joined (because a failed test must not hang) is detached.
    deinit {
        if !joined { pthread_detach(thread) }
    }
}

/// A one-way flag shared between threads.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A value shared between threads.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func set(_ value: Value) { storage.withLock { $0 = value } }
    func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

/// Polls `condition` until it holds or `timeout` expires; returns whether it held.
/// Used instead of fixed sleeps so a slow machine waits longer and a fast one does not wait.
func waitUntil(timeout: Duration = .seconds(5), _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try condition() { return true }
        usleep(1_000)
    }
    return try condition()
}

private let inprocCounter = Atomic<Int>(0)

/// A process-unique `inproc://` endpoint (tests run in parallel).
func uniqueInproc(_ name: String) -> String {
    let n = inprocCounter.add(1, ordering: .relaxed).newValue
    return "inproc://test-\(name)-\(n)"
}

/// Loopback TCP with a kernel-chosen free port; ``ZMQSocket/bind(_:)`` returns the real one.
let loopbackWildcard = "tcp://127.0.0.1:*"

/// Default receive timeout for test sockets, so a bug fails a test instead of hanging it.
let testTimeout: Int32 = 5_000

extension ZMQContext {
    /// A socket with linger 0 (tests never wait for unsent messages) and bounded blocking.
    func makeTestSocket(_ type: ZMQSocketType, receiveTimeout: Int32 = testTimeout) throws(ZMQError) -> ZMQSocket {
        let socket = try makeSocket(type)
        try socket.setLinger(0)
        try socket.setReceiveTimeout(receiveTimeout)
        try socket.setSendTimeout(testTimeout)
        return socket
    }
}

/// UTF-8 bytes of a string literal.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Deterministic non-trivial payload of `count` bytes.
func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) }
}

import Foundation
import GRDB

extension SQLiteStore {
    /// Lets ``read(_:)`` run right on the calling thread, waiting for SQLite there, for the rest
    /// of the thread's life. Call it only on a thread of your own whose callers expect it to
    /// block (a pool of read threads), never on a thread of Swift's cooperative pool.
    ///
    /// On an unmarked thread a read is handed to GRDB's queues and the caller resumed when it is
    /// done: safe anywhere, but four crossings between threads, which cost far more than a short
    /// query.
    public static func permitBlockingReadsOnThisThread() {
        pthread_setspecific(blockingReadsKey, UnsafeRawPointer(bitPattern: 1))
    }

    /// Whether the calling thread was marked by ``permitBlockingReadsOnThisThread()``.
    static var blockingReadsPermitted: Bool {
        pthread_getspecific(blockingReadsKey) != nil
    }

    /// The thread-specific slot that marks such threads.
    private static let blockingReadsKey: pthread_key_t = {
        var key = pthread_key_t()
        // Fails only when the process is out of keys, where nothing sensible can go on.
        precondition(pthread_key_create(&key, nil) == 0, "cannot create a thread-specific key")
        return key
    }()
}

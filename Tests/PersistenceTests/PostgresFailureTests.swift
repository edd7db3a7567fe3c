import Domain
import Foundation
import NIOCore
import NIOPosix
@testable import Persistence
import SvcdTestSupport
import Synchronization
import Testing
import Transport

/// How the PostgreSQL store reads the server's errors, against the server's own: a session the
/// server ended because its transaction sat idle is a rolled-back write (`unavailable`, safe to
/// resend), and an error no kind describes is `internal` with a description that names what the
/// server said, for the log.
@Suite(.postgres) struct PostgresFailureTests {
    @Test func aTransactionTheServerEndedForSittingIdleIsUnavailableNotInternal() async throws {
        let server = try #require(PostgresSuite.current)
        // This test stalls its store's event loop: one of its own, so that the stores of the
        // suites running meanwhile keep theirs.
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await PostgresSuite.openStore(url: try await server.createDatabase(), connections: 1, eventLoop: loops.next())
        // The error the statement sent after the idle time gets, caught inside the operation (the
        // store's own watch on the connection may answer the caller first, without waiting for
        // the operation to end).
        let raised = Mutex<Result<Void, any Error>?>(nil)
        _ = try? await store.read { connection, logger in
            try await connection.run("SET idle_in_transaction_session_timeout = 100", logger)
            try await connection.run("BEGIN", logger)
            // The connection's event loop starved past the timeout, as in a process starved of
            // CPU: the server ends the session meanwhile, and the statement written when the loop
            // runs again, before it reads what the server sent, is answered by the server's
            // error. Run on the loop's own thread, so the statement is written in the same turn
            // of the loop as the stall ends, however late a thread of the pool would get to it.
            await withTaskExecutorPreference(LoopThread(connection.eventLoop)) {
                connection.eventLoop.preconditionInEventLoop()
                LoopThread.stall(for: 0.6)
                do {
                    try await connection.run("SELECT 1", logger)
                    raised.withLock { $0 = .success(()) }
                } catch {
                    raised.withLock { $0 = .failure(error) }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while raised.withLock({ $0 }) == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        await store.close()
        try await loops.shutdownGracefully()
        let outcome = try #require(raised.withLock { $0 }, "the statement after the idle time never ended")
        guard case .failure(let error) = outcome else {
            Issue.record("a statement after the idle timeout succeeded")
            return
        }
        #expect(PostgresFailure.sqlState(error) == "25P03", "\(PostgresFailure.summary(error))")
        #expect(PostgresFailure.isIdleTransactionEnded(error))
        let told = PostgresFailure.uncommitted(error)
        guard case .unavailable(let reason)? = told as? RepositoryFailure else {
            Issue.record("told \(told), not unavailable")
            return
        }
        #expect(reason.contains("SQLSTATE 25P03"), "\(reason)")
        #expect(WireError(mapping: told).code == .unavailable)
    }

    @Test func anUnexpectedServerErrorIsInternalAndItsDescriptionNamesTheStateAndConstraint() async throws {
        let server = try #require(PostgresSuite.current)
        let store = try await PostgresSuite.openStore(url: try await server.createDatabase())
        do {
            let _: Int = try await store.write(claim: nil) { connection, logger in
                try await connection.run("INSERT INTO favorites (user_id, restaurant_id, saved_at) VALUES ('u-nobody', 'r-nowhere', 0)", logger)
                return (1, nil)
            }
            Issue.record("a favourite of a user that does not exist was stored")
        } catch {
            #expect(error is UnexpectedPostgresError, "\(type(of: error))")
            #expect("\(error)".contains("SQLSTATE 23503"), "\(error)")
            #expect("\(error)".contains("constraint favorites_user_id_fkey"), "\(error)")
            #expect(!"\(error)".contains("u-nobody"), "the description quotes the row: \(error)")
            // Still readable by kind through the wrapper (the taken-email check relies on it).
            #expect(PostgresFailure.sqlState(error) == "23503")
            #expect(WireError(mapping: error).code == .internal)
        }
        let stored = try await store.read { connection, logger in
            try await connection.row("SELECT count(*)::bigint FROM favorites", logger) { try $0.decode(Int.self) }
        }
        await store.close()
        #expect(stored == 0)
    }
}

/// Runs the tasks that prefer it on one event loop's thread.
private final class LoopThread: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Blocks the calling thread: a starved event loop, when called on one.
    static func stall(for seconds: TimeInterval) {
        Thread.sleep(forTimeInterval: seconds)
    }
}

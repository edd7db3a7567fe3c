import Domain
import PostgresNIO

/// How a PostgreSQL error is to be read: the connection is gone, the server gave up waiting,
/// the transaction lost a race and may be run again, or a constraint refused a row.
enum PostgresFailure {
    /// The PostgreSQL error `error` is or wraps.
    private static func psqlError(_ error: any Error) -> PSQLError? {
        (error as? PSQLError) ?? (error as? UnexpectedPostgresError)?.underlying
    }

    /// The SQLSTATE of a server error (`PSQLError.serverInfo?[.sqlState]`), if it is one.
    static func sqlState(_ error: any Error) -> String? {
        psqlError(error)?.serverInfo?[.sqlState]
    }

    /// The constraint a server error names, if any.
    static func constraint(_ error: any Error) -> String? {
        psqlError(error)?.serverInfo?[.constraintName]
    }

    /// The connection could not be made or was lost: the client closed or lost it, its pool shut
    /// down, the server is shutting down, crashed, refuses connections (SQLSTATE class 08 and
    /// 57P01–57P03), or it ended the session of a transaction left idle too long (25P03).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let state = sqlState(error) {
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) || isIdleTransactionEnded(error)
        }
        // A lease still waiting when its pool shuts down (the store moved to another server)
        // fails with the pool's own error, whose type postgres-nio (1.33) does not export.
        if String(describing: type(of: error)) == "ConnectionPoolError" { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed, .queryCancelled:
            return true
        default:
            return false
        }
    }

    /// The server ended the session because its transaction sat idle between statements longer
    /// than `idle_in_transaction_session_timeout` (SQLSTATE 25P03): the transaction was rolled
    /// back, also when this is the answer to its `COMMIT` (a `COMMIT` the server had received
    /// would have ended the idle time). Nothing was written.
    static func isIdleTransactionEnded(_ error: any Error) -> Bool {
        sqlState(error) == "25P03"
    }

    /// The server refused a write because its sessions are read-only (SQLSTATE 25006): a standby,
    /// or a primary demoted under this connection. Nothing was written.
    static func isReadOnly(_ error: any Error) -> Bool {
        sqlState(error) == "25006"
    }

    /// The server gave up on the statement (`statement_timeout`, `lock_timeout`) and rolled it
    /// back: nothing was written.
    static func isServerTimeout(_ error: any Error) -> Bool {
        ["57014", "55P03"].contains(sqlState(error) ?? "")
    }

    /// The transaction was chosen as a deadlock victim or failed serialization and was rolled
    /// back; running it again is correct.
    static func isRetryable(_ error: any Error) -> Bool {
        ["40001", "40P01"].contains(sqlState(error) ?? "")
    }

    /// A unique index refused a row; `constraint` names it.
    static func isUniqueViolation(_ error: any Error, constraint name: String) -> Bool {
        sqlState(error) == "23505" && constraint(error) == name
    }

    /// The server refused a statement as a whole for what it contains (a constraint, a value out
    /// of range): it wrote nothing, and the connection and database are fine.
    static func isStatementRefusal(_ error: any Error) -> Bool {
        sqlState(error) != nil && !isConnectionLoss(error) && !isServerTimeout(error) && !isRetryable(error) && !isReadOnly(error)
    }

    /// What a caller is told about `error`, raised by work that did not commit anything: an
    /// unreachable or timed-out database is ``RepositoryFailure/unavailable(reason:)``; every
    /// other error stays as it is.
    static func uncommitted(_ error: any Error) -> any Error {
        if isConnectionLoss(error) {
            return RepositoryFailure.unavailable(reason: "the connection to PostgreSQL failed: \(summary(error))")
        }
        if isReadOnly(error) {
            return RepositoryFailure.unavailable(reason: "the PostgreSQL server accepts no writes (a standby, or read-only): \(summary(error))")
        }
        if isServerTimeout(error) {
            return RepositoryFailure.unavailable(reason: "PostgreSQL cancelled the statement after waiting too long: \(summary(error))")
        }
        if isRetryable(error) {
            return RepositoryFailure.unavailable(reason: "PostgreSQL kept aborting the transaction because of conflicting ones: \(summary(error))")
        }
        if let psql = error as? PSQLError { return UnexpectedPostgresError(underlying: psql) }
        return error
    }

    /// A short description: the server's message when there is one, with the SQLSTATE and the
    /// table and constraint it names (never its detail, which may quote the row's values).
    static func summary(_ error: any Error) -> String {
        if let error = psqlError(error) {
            if let message = error.serverInfo?[.message] {
                let names = [(PSQLError.ServerInfo.Field.tableName, "table"), (.constraintName, "constraint")]
                    .compactMap { field, label in error.serverInfo?[field].map { "\(label) \($0)" } }
                return "\(message) (" + (["SQLSTATE \(error.serverInfo?[.sqlState] ?? "?")"] + names).joined(separator: ", ") + ")"
            }
            return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
        }
        return "\(error)"
    }
}

/// A PostgreSQL error that none of ``PostgresFailure``'s kinds describes (a constraint, a value
/// out of range, an unexpected message), as the store throws it: `PSQLError` keeps the server's
/// message out of its description, and the log of an `internal` reply needs it.
struct UnexpectedPostgresError: Error, CustomStringConvertible {
    /// The error as postgres-nio raised it.
    let underlying: PSQLError

    /// The server's message, SQLSTATE, table and constraint, or postgres-nio's own code.
    var description: String { "PostgreSQL: \(PostgresFailure.summary(underlying))" }
}

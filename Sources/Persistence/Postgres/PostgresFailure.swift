import Domain
import PostgresNIO

/// How a PostgreSQL error is to be read: the connection is gone, the server gave up waiting,
/// the transaction lost a race and may be run again, or a constraint refused a row.
enum PostgresFailure {
    /// The SQLSTATE of a server error (`PSQLError.serverInfo?[.sqlState]`), if it is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// The constraint a server error names, if any.
    static func constraint(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.constraintName]
    }

    /// The connection could not be made or was lost: the client closed or lost it, its pool shut
    /// down, or the server is shutting down, crashed, refuses connections (SQLSTATE class 08 and
    /// 57P01–57P03).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let state = sqlState(error) {
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
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
        return error
    }

    /// A short description: the server's message when there is one.
    static func summary(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
        }
        return "\(error)"
    }
}

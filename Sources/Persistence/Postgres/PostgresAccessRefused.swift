import PostgresNIO

/// The PostgreSQL server refused this service's configuration rather than being away: the role
/// or its password is wrong or not allowed to connect (SQLSTATE class 28), the database does not
/// exist (3D000), or the role lacks a privilege the schema needs (42501). Waiting does not help;
/// the URL or the database's grants must change.
public struct PostgresAccessRefused: Error, CustomStringConvertible {
    /// The server's message and SQLSTATE, and what to check.
    public let description: String

    /// The refusal `error` (from `server`) is, if it is one.
    static func from(_ error: any Error, url: PostgresURL, server: PostgresURL.Server) -> PostgresAccessRefused? {
        if let failure = error as? PostgresTransactionError {
            // A statement of the transaction (or its BEGIN or COMMIT) was refused.
            guard let cause = failure.closureError ?? failure.beginError ?? failure.commitError else { return nil }
            return from(cause, url: url, server: server)
        }
        guard let state = PostgresFailure.sqlState(error) else { return nil }
        let hint: String
        switch state {
        case _ where state.hasPrefix("28"): hint = "check the user and password of the database URL and the server's pg_hba.conf"
        case "3D000": hint = "create the database, or name an existing one in the database URL"
        case "42501": hint = "grant the role the privileges the schema needs (CREATE on the database's public schema), or use the database's owner"
        default: return nil
        }
        return PostgresAccessRefused(description: "PostgreSQL refused \(url.user)@\(server)/\(url.database): \(PostgresFailure.summary(error)); \(hint)")
    }
}

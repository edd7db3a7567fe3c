import Foundation

/// Where a PostgreSQL database is and how to log in:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]` (`postgresql://` too).
///
/// User and password may be percent-encoded (`%40` for `@`). The port defaults to 5432.
/// `sslmode` follows libpq's names: `disable`, `prefer` (the default: TLS when the server offers
/// it, without checking its certificate), `require` (TLS, certificate not checked) and
/// `verify-full` (TLS with the certificate and host name checked).
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server supports it, else plain; the certificate is not checked.
        case prefer
        /// TLS or no connection; the certificate is not checked.
        case require
        /// TLS, with the server's certificate and host name verified.
        case verifyFull = "verify-full"
    }

    /// The role to log in as.
    public let user: String
    /// Its password, if the server asks for one.
    public let password: String?
    /// Host name or IP address.
    public let host: String
    /// TCP port.
    public let port: Int
    /// The database.
    public let database: String
    /// TLS use.
    public let tlsMode: TLSMode

    /// Parses `text`; the error says what is wrong with it.
    public init(parsing text: String) throws(PostgresURLError) {
        let form = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        guard let components = URLComponents(string: text) else {
            throw PostgresURLError("is not a URL of the form \(form)")
        }
        guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw PostgresURLError("must start with postgres:// (the form is \(form))")
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw PostgresURLError("names no user (the form is \(form))")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresURLError("names no host (the form is \(form))")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresURLError("names no database after the host (the form is \(form))")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw PostgresURLError("has port \(port), which is not 1...65535")
        }
        var tlsMode = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    throw PostgresURLError("has sslmode=\(item.value ?? ""); use one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tlsMode = mode
            default:
                throw PostgresURLError("has the unknown parameter \(item.name) (only sslmode is understood)")
            }
        }
        self.user = user
        self.password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.database = database.removingPercentEncoding ?? database
        self.tlsMode = tlsMode
    }

    /// The URL with the password hidden, for logs and status replies.
    public var description: String {
        let login = password == nil ? user : "\(user):***"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(login)@\(shownHost):\(port)/\(database)" + (tlsMode == .prefer ? "" : "?sslmode=\(tlsMode.rawValue)")
    }
}

/// A database URL that cannot be used; the message says why.
public struct PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, completing "the database URL …".
    public let problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    /// "the database URL …".
    public var description: String { "the database URL \(problem)" }
}

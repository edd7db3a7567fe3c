import Foundation

/// Where a PostgreSQL database is and how to log in, in libpq's URL form:
/// `postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?PARAMETER=VALUE&…]`
/// (`postgresql://` too).
///
/// User and password may be percent-encoded (`%40` for `@`). A port defaults to 5432; an IPv6
/// address is written in brackets (`[::1]:5432`). Several servers make a list, as libpq takes it:
/// the store connects to the first that fits `target_session_attrs` and moves to another when
/// that one stops fitting (see ``PostgresStore``).
///
/// Parameters:
/// - `sslmode` follows libpq's names: `disable`, `prefer` (the default: TLS when the server
///   offers it, without checking its certificate), `require` (TLS, certificate not checked) and
///   `verify-full` (TLS with the certificate and host name checked).
/// - `target_session_attrs`: `any` (the default: the first server that accepts a connection),
///   `read-write` (one whose sessions accept writes: `transaction_read_only` is off) or `primary`
///   (one not in recovery, i.e. not a standby).
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

    /// Which of the listed servers the store may use (libpq's `target_session_attrs`).
    public enum TargetSession: String, Sendable, CaseIterable {
        /// The first that accepts a connection.
        case any
        /// The first whose sessions accept writes (`SHOW transaction_read_only` is `off`).
        case readWrite = "read-write"
        /// The first that is not a standby (`pg_is_in_recovery()` is false).
        case primary
    }

    /// One server of the list: host name or IP address (IPv6 without brackets) and TCP port.
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        /// Host name or IP address.
        public let host: String
        /// TCP port.
        public let port: Int

        /// `host:port`, with an IPv6 address in brackets.
        public var description: String {
            (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
    }

    /// The role to log in as.
    public let user: String
    /// Its password, if the server asks for one.
    public let password: String?
    /// The servers, in the URL's order; at least one.
    public let servers: [Server]
    /// Which of ``servers`` the store may use.
    public let targetSession: TargetSession
    /// The database.
    public let database: String
    /// TLS use.
    public let tlsMode: TLSMode

    /// The first server's host name or IP address.
    public var host: String { servers[0].host }
    /// The first server's TCP port.
    public var port: Int { servers[0].port }

    /// Whether the store has a choice to make: several servers, or a kind of server to insist on.
    public var choosesServer: Bool { servers.count > 1 || targetSession != .any }

    /// Parses `text`; the error says what is wrong with it.
    public init(parsing text: String) throws(PostgresURLError) {
        let form = "postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE"
        guard let schemeEnd = text.range(of: "://") else {
            throw PostgresURLError("must start with postgres:// (the form is \(form))")
        }
        guard ["postgres", "postgresql"].contains(text[..<schemeEnd.lowerBound]) else {
            throw PostgresURLError("must start with postgres:// (the form is \(form))")
        }
        var rest = text[schemeEnd.upperBound...]
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard rest.allSatisfy({ !$0.isWhitespace }) else {
            throw PostgresURLError("is not a URL of the form \(form): it contains a space")
        }
        // The user part ends at the last "@" before the path (a password's own "@" is %40).
        let pathStart = rest.lastIndex(of: "@").flatMap { at in rest[at...].firstIndex(of: "/") } ?? rest.firstIndex(of: "/")
        let authority = pathStart.map { rest[..<$0] } ?? rest
        guard let at = authority.lastIndex(of: "@") else {
            throw PostgresURLError("names no user (the form is \(form))")
        }
        let login = authority[..<at]
        let userPart = login.firstIndex(of: ":").map { login[..<$0] } ?? login
        guard let user = String(userPart).removingPercentEncoding, !user.isEmpty else {
            throw PostgresURLError("names no user (the form is \(form))")
        }
        let password = login.firstIndex(of: ":").map { String(login[login.index(after: $0)...]) }
        var servers: [Server] = []
        for entry in authority[authority.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false) {
            servers.append(try Self.server(entry, form: form))
        }
        let database = pathStart.map { String(rest[$0...].drop { $0 == "/" }) } ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresURLError("names no database after the host (the form is \(form))")
        }
        var tlsMode = TLSMode.prefer
        var targetSession = TargetSession.any
        for item in query.split(separator: "&") {
            let name = item.firstIndex(of: "=").map { String(item[..<$0]) } ?? String(item)
            let value = item.firstIndex(of: "=").map { String(item[item.index(after: $0)...]).removingPercentEncoding ?? "" } ?? ""
            switch name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw PostgresURLError("has sslmode=\(value); use one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tlsMode = mode
            case "target_session_attrs":
                guard let target = TargetSession(rawValue: value) else {
                    throw PostgresURLError(
                        "has target_session_attrs=\(value); use one of \(TargetSession.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                targetSession = target
            default:
                throw PostgresURLError("has the unknown parameter \(name) (only sslmode and target_session_attrs are understood)")
            }
        }
        self.user = user
        self.password = password.flatMap { $0.removingPercentEncoding }
        self.servers = servers
        self.targetSession = targetSession
        self.database = database.removingPercentEncoding ?? database
        self.tlsMode = tlsMode
    }

    /// One `HOST[:PORT]` of the list.
    private static func server(_ entry: Substring, form: String) throws(PostgresURLError) -> Server {
        var host: Substring
        var portText: Substring?
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { throw PostgresURLError("has an IPv6 address without its closing ]") }
            host = entry[entry.index(after: entry.startIndex)..<close]
            let after = entry[entry.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw PostgresURLError("has \(entry), which is not [ADDRESS]:PORT") }
                portText = after.dropFirst()
            }
        } else if let colon = entry.firstIndex(of: ":") {
            host = entry[..<colon]
            portText = entry[entry.index(after: colon)...]
        } else {
            host = entry
        }
        guard !host.isEmpty else { throw PostgresURLError("names no host (the form is \(form))") }
        var port = 5432
        if let portText {
            guard let number = Int(portText) else { throw PostgresURLError("has port \(portText), which is not a number") }
            port = number
        }
        guard (1...65_535).contains(port) else {
            throw PostgresURLError("has port \(port), which is not 1...65535")
        }
        return Server(host: String(host).removingPercentEncoding ?? String(host), port: port)
    }

    /// The URL with the password hidden, for logs and status replies.
    public var description: String {
        let login = password == nil ? user : "\(user):***"
        var parameters: [String] = []
        if targetSession != .any { parameters.append("target_session_attrs=\(targetSession.rawValue)") }
        if tlsMode != .prefer { parameters.append("sslmode=\(tlsMode.rawValue)") }
        return "postgres://\(login)@\(servers.map(\.description).joined(separator: ","))/\(database)"
            + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
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

import Foundation
import WireJSON

/// `DIR/endpoints.json`: how clients find a running svcd. svcd writes it atomically (temporary
/// file, then rename) once every endpoint is bound, so a reader never sees a half-written file;
/// clients, svcctl, the benchmarks and the tests read it. Its member names are spelled here and
/// nowhere else.
public struct EndpointsFile: Sendable, Hashable {
    /// The service's process id.
    public var pid: Int32
    /// The admin endpoint's address.
    public var admin: String?
    /// The admin endpoint's CURVE public key (Z85).
    public var adminServerKey: String?
    /// Absolute path of the local admin client's public key file.
    public var adminClientPublicKeyFile: String?
    /// Absolute path of the local admin client's secret key file.
    public var adminClientSecretKeyFile: String?
    /// The use-case endpoints' CURVE public key (Z85) when they are CURVE servers.
    public var useCaseServerKey: String?
    /// The monitoring listener (`--http-port`), e.g. `http://127.0.0.1:9100`.
    public var http: String?
    /// The live event stream (a PUB socket).
    public var events: String?
    /// The event log (a ROUTER socket).
    public var eventLog: String?
    /// Each use case's bound address. Reading ignores names this version does not know.
    public var useCases: [UseCaseName: String]

    /// The file's member names (the admin operation `endpoints` answers with the same names).
    public enum Key {
        /// `pid`.
        public static let pid = "pid"
        /// `admin`.
        public static let admin = "admin"
        /// `adminServerKey`.
        public static let adminServerKey = "adminServerKey"
        /// `adminClientPublicKeyFile`.
        public static let adminClientPublicKeyFile = "adminClientPublicKeyFile"
        /// `adminClientSecretKeyFile`.
        public static let adminClientSecretKeyFile = "adminClientSecretKeyFile"
        /// `useCaseServerKey`.
        public static let useCaseServerKey = "useCaseServerKey"
        /// `http`.
        public static let http = "http"
        /// `events`.
        public static let events = "events"
        /// `eventLog`.
        public static let eventLog = "eventLog"
        /// `useCases`.
        public static let useCases = "useCases"
    }

    /// The file's name inside a data directory.
    public static let fileName = "endpoints.json"

    /// Creates the description.
    public init(
        pid: Int32, admin: String? = nil, adminServerKey: String? = nil, adminClientPublicKeyFile: String? = nil,
        adminClientSecretKeyFile: String? = nil, useCaseServerKey: String? = nil, http: String? = nil, events: String? = nil,
        eventLog: String? = nil, useCases: [UseCaseName: String]
    ) {
        self.http = http
        self.events = events
        self.eventLog = eventLog
        self.useCaseServerKey = useCaseServerKey
        self.pid = pid
        self.admin = admin
        self.adminServerKey = adminServerKey
        self.adminClientPublicKeyFile = adminClientPublicKeyFile
        self.adminClientSecretKeyFile = adminClientSecretKeyFile
        self.useCases = useCases
    }

    /// The file's path inside a data directory.
    public static func path(in dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent(fileName).path
    }

    /// The optional string members, in the order they are written.
    private var optionalMembers: [(String, String?)] {
        [
            (Key.admin, admin), (Key.adminServerKey, adminServerKey), (Key.adminClientPublicKeyFile, adminClientPublicKeyFile),
            (Key.adminClientSecretKeyFile, adminClientSecretKeyFile), (Key.useCaseServerKey, useCaseServerKey), (Key.http, http),
            (Key.events, events), (Key.eventLog, eventLog),
        ]
    }

    /// The JSON text, use cases in endpoint order.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 2048)
        writer.beginObject()
        writer.key(Key.pid)
        writer.int(Int(pid))
        for (key, value) in optionalMembers {
            guard let value else { continue }
            writer.key(key)
            writer.string(value)
        }
        writer.key(Key.useCases)
        writer.beginObject()
        for name in UseCaseName.allCases {
            guard let address = useCases[name] else { continue }
            writer.key(name.rawValue)
            writer.string(address)
        }
        writer.endObject()
        writer.endObject()
        return writer.finish() + [UInt8(ascii: "\n")]
    }

    /// Writes the file into `dataDirectory` atomically.
    public func write(to dataDirectory: String) throws {
        let target = URL(fileURLWithPath: EndpointsFile.path(in: dataDirectory))
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(Self.fileName).\(pid).tmp")
        try Data(encoded()).write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "rename to \(target.path) failed: \(String(cString: strerror(code)))"])
        }
    }

    /// Removes the file in `dataDirectory` if process `pid` wrote it: a stopped svcd leaves none
    /// behind, so clients do not dial a dead process; a file rewritten by another instance since
    /// is left alone.
    public static func remove(from dataDirectory: String, ifWrittenBy pid: Int32) {
        guard let file = try? read(from: dataDirectory), file.pid == pid else { return }
        try? FileManager.default.removeItem(atPath: path(in: dataDirectory))
    }

    /// Reads and parses the file in `dataDirectory`.
    public static func read(from dataDirectory: String) throws -> EndpointsFile {
        try read(at: path(in: dataDirectory))
    }

    /// Reads and parses the file at `path`.
    public static func read(at path: String) throws -> EndpointsFile {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try parse(Array(data))
    }

    /// Parses the file's bytes: an object with an integer `pid` and a `useCases` object of
    /// strings; the other members are optional strings. Throws ``EndpointsFileError`` naming
    /// what is wrong.
    public static func parse(_ bytes: [UInt8]) throws(EndpointsFileError) -> EndpointsFile {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw EndpointsFileError("not valid JSON: \(error)")
        }
        guard let pid = value[Key.pid]?.intValue, let pid32 = Int32(exactly: pid) else {
            throw EndpointsFileError("no integer \(Key.pid)")
        }
        guard let members = value[Key.useCases]?.objectValue else {
            throw EndpointsFileError("no \(Key.useCases) object")
        }
        var useCases: [UseCaseName: String] = [:]
        for member in members {
            guard let name = UseCaseName(rawValue: member.key) else { continue }
            guard let address = member.value.stringValue else {
                throw EndpointsFileError("the address of \(member.key) is not a string")
            }
            useCases[name] = address
        }
        return EndpointsFile(
            pid: pid32, admin: value[Key.admin]?.stringValue, adminServerKey: value[Key.adminServerKey]?.stringValue,
            adminClientPublicKeyFile: value[Key.adminClientPublicKeyFile]?.stringValue,
            adminClientSecretKeyFile: value[Key.adminClientSecretKeyFile]?.stringValue,
            useCaseServerKey: value[Key.useCaseServerKey]?.stringValue, http: value[Key.http]?.stringValue,
            events: value[Key.events]?.stringValue, eventLog: value[Key.eventLog]?.stringValue, useCases: useCases
        )
    }
}

/// An `endpoints.json` that cannot be read as one, with what is wrong in plain words.
public struct EndpointsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

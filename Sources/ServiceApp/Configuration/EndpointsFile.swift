import Foundation
import Transport
import WireJSON

/// `DIR/endpoints.json`: how clients find the service. Written atomically (temporary file, then
/// rename) once every endpoint is bound, so a reader never sees a half-written file.
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
    /// Use case name → bound address.
    public var useCases: [String: String]

    /// Creates the description.
    public init(
        pid: Int32, admin: String? = nil, adminServerKey: String? = nil, adminClientPublicKeyFile: String? = nil,
        adminClientSecretKeyFile: String? = nil, useCaseServerKey: String? = nil, http: String? = nil, useCases: [String: String]
    ) {
        self.http = http
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
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("endpoints.json").path
    }

    /// The JSON text, use cases in endpoint order.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 2048)
        writer.beginObject()
        writer.key("pid")
        writer.int(Int(pid))
        for (key, value) in [
            ("admin", admin), ("adminServerKey", adminServerKey), ("adminClientPublicKeyFile", adminClientPublicKeyFile),
            ("adminClientSecretKeyFile", adminClientSecretKeyFile), ("useCaseServerKey", useCaseServerKey),
            ("http", http),
        ] {
            guard let value else { continue }
            writer.key(key)
            writer.string(value)
        }
        writer.key("useCases")
        writer.beginObject()
        for name in UseCaseName.allCases {
            guard let address = useCases[name.rawValue] else { continue }
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
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".endpoints.json.\(pid).tmp")
        try Data(encoded()).write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "rename to \(target.path) failed: \(String(cString: strerror(code)))"])
        }
    }

    /// Reads and parses the file in `dataDirectory`.
    public static func read(from dataDirectory: String) throws -> EndpointsFile {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(in: dataDirectory)))
        let value = try JSONParser.parse(Array(data))
        guard let pid = value["pid"]?.intValue, case .object(let cases)? = value["useCases"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var useCases: [String: String] = [:]
        for member in cases {
            if let address = member.value.stringValue { useCases[member.key] = address }
        }
        return EndpointsFile(
            pid: Int32(pid), admin: value["admin"]?.stringValue, adminServerKey: value["adminServerKey"]?.stringValue,
            adminClientPublicKeyFile: value["adminClientPublicKeyFile"]?.stringValue,
            adminClientSecretKeyFile: value["adminClientSecretKeyFile"]?.stringValue,
            useCaseServerKey: value["useCaseServerKey"]?.stringValue, http: value["http"]?.stringValue, useCases: useCases
        )
    }
}

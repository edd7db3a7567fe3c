import Foundation
import ZeroMQ

/// The admin endpoint's CURVE keys in `DATA_DIR/keys/`, created on first start:
///
/// | file | what |
/// |---|---|
/// | `server.public`, `server.secret` | the service's key pair (secret: mode 0600) |
/// | `admin.public`, `admin.secret` | the local admin client's key pair (secret: mode 0600) |
/// | `authorized_keys` | the allow-list: one client public key per line (`svcctl keygen` appends) |
///
/// Each key file holds one 40-character Z85 key on one line.
public struct AdminKeys: Sendable {
    /// The directory holding the key files.
    public let directory: String
    /// The service's key pair.
    public let server: ZMQCurveKeyPair
    /// Absolute path of the local admin client's public key file.
    public let clientPublicKeyFile: String
    /// Absolute path of the local admin client's secret key file.
    public let clientSecretKeyFile: String
    /// Absolute path of the allow-list.
    public let authorizedKeysFile: String

    /// Loads the keys of `dataDirectory`, creating whatever is missing.
    public static func loadOrCreate(in dataDirectory: String) throws -> AdminKeys {
        let files = FileManager.default
        let directory = URL(fileURLWithPath: dataDirectory).standardizedFileURL.appendingPathComponent("keys").path
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try pair(named: "server", in: directory)
        let client = try pair(named: "admin", in: directory)
        let authorized = directory + "/authorized_keys"
        if !files.fileExists(atPath: authorized) {
            try write("# Client public keys allowed on the admin endpoint, one per line.\n\(client.publicKey)\n", to: authorized, mode: 0o644)
        }
        return AdminKeys(
            directory: directory, server: server, clientPublicKeyFile: directory + "/admin.public",
            clientSecretKeyFile: directory + "/admin.secret", authorizedKeysFile: authorized
        )
    }

    /// The use-case endpoints' key pair (`usecase-server.public` / `.secret` beside the admin
    /// keys), created on first use: the key clients of a CURVE svcd (`--client-keys`) dial.
    public func useCaseServer() throws -> ZMQCurveKeyPair {
        try Self.pair(named: "usecase-server", in: directory)
    }

    /// The pair `<name>.public` / `<name>.secret`: read if the secret exists (the public key is
    /// derived from it and must match the file), generated otherwise.
    private static func pair(named name: String, in directory: String) throws -> ZMQCurveKeyPair {
        let secretFile = directory + "/\(name).secret"
        let publicFile = directory + "/\(name).public"
        if FileManager.default.fileExists(atPath: secretFile) {
            let secret = try readKey(secretFile)
            let publicKey = try ZMQCurve.publicKey(fromSecret: secret)
            if !FileManager.default.fileExists(atPath: publicFile) {
                // Stopped between the two files the first time: the public half is derived.
                try write(publicKey + "\n", to: publicFile, mode: 0o644)
            } else if let stored = try? readKey(publicFile), stored != publicKey {
                throw AdminKeyError("\(publicFile) does not belong to \(secretFile)")
            }
            return ZMQCurveKeyPair(publicKey: publicKey, secretKey: secret)
        }
        let pair = try ZMQCurveKeyPair.generate()
        try write(pair.secretKey + "\n", to: secretFile, mode: 0o600)
        try write(pair.publicKey + "\n", to: publicFile, mode: 0o644)
        return pair
    }

    /// The key of a key file (``CurveKeyFile``).
    public static func readKey(_ path: String) throws(AdminKeyError) -> String {
        do {
            return try CurveKeyFile.key(at: path)
        } catch .unreadable(let reason) {
            throw AdminKeyError("cannot read \(path): \(reason)")
        } catch {
            throw AdminKeyError("\(path) does not hold a 40-character Z85 key on its first line")
        }
    }

    /// Creates `path` with `mode` from the start (a secret is never readable by others, not even
    /// briefly), failing if it exists. Whole or not at all: the text goes to `path.partial`
    /// first, which is linked to `path` once synced, so a kill half-way leaves no half key.
    private static func write(_ text: String, to path: String, mode: mode_t) throws {
        let partial = path + ".partial"
        unlink(partial)  // left by a kill during an earlier start
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw AdminKeyError("cannot create \(partial): \(String(cString: strerror(errno)))") }
        defer { unlink(partial) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = written == bytes.count && fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard synced else { throw AdminKeyError("cannot write \(partial): \(String(cString: strerror(code)))") }
        guard link(partial, path) == 0 else { throw AdminKeyError("cannot create \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A key file is missing, malformed or inconsistent.
public struct AdminKeyError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

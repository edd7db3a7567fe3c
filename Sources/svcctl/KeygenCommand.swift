import ArgumentParser
import Foundation
import WireContract
import WireJSON
import ZeroMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `svcctl keygen`: makes a new CURVE client key pair in `DATA_DIR/keys/` and allows it by
/// appending its public key to an allow-list: the admin endpoint's `DATA_DIR/keys/authorized_keys`,
/// or with `--client-keys FILE` the use-case endpoints' list (svcd's `--client-keys FILE`), as a
/// caller's line `KEY NAME [allow=…] [rate=R]` (``CallerLine``). Both lists are read at every
/// handshake, so the key works at once. Local only.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create a client key pair in DATA_DIR/keys/ and add it to authorized_keys (admin) or to a --client-keys FILE (use cases)."
    )

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: "Base name of the key files (default client-<UTC timestamp>); letters, digits, '.', '_', '-'.")
    var name: String?

    @Option(name: .long, help: "Allow the key on the use-case endpoints of an svcd started with --client-keys FILE: append it to FILE (created if missing) instead of keys/authorized_keys.")
    var clientKeys: String?

    @Option(name: .long, help: "With --client-keys: the caller's name on its line, in svcd's statistics, metrics and logs (default: the key files' base name); no spaces or '='.")
    var caller: String?

    @Option(name: .long, help: "With --client-keys: the use cases (and 'events', the event endpoints) the caller may use, comma-separated (default: all).")
    var allow: String?

    @Option(name: .long, help: "With --client-keys: the caller's requests per second on each svcd instance, a positive integer (default: no cap).")
    var rate: Int?

    func validate() throws {
        if let name { try Self.check(name: name) }
        guard clientKeys != nil else {
            if caller != nil || allow != nil || rate != nil {
                throw ValidationError("--caller, --allow and --rate describe a line of a --client-keys FILE; give --client-keys too")
            }
            return
        }
        // Checked as svcd will read the line, with a stand-in for the key not made yet.
        if case .failure(let failure) = Self.callerLine(key: String(repeating: "0", count: 40), name: caller ?? name ?? "client", allow: allow, rate: rate) {
            throw ValidationError(failure.reason)
        }
    }

    /// The caller's line of `key`, as svcd parses it.
    static func callerLine(key: String, name: String, allow: String?, rate: Int?) -> Result<CallerLine, CallerLine.Failure> {
        var fields = [key, name]
        if let allow { fields.append("\(CallerGrant.allowOption)=\(allow)") }
        if let rate { fields.append("\(CallerGrant.rateOption)=\(rate)") }
        if name.contains(where: \.isWhitespace) { return .failure(CallerLine.Failure(reason: "--caller must not contain spaces")) }
        return CallerLine.parse(fields)
    }

    /// Key names become file names: no separators, no leading dot, nothing odd.
    static func check(name: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.count <= 100, !name.hasPrefix("."), name.allSatisfy(allowed.contains),
            name != "authorized_keys"
        else {
            throw ValidationError("--name must be 1-100 letters, digits, '.', '_' or '-', not starting with '.'")
        }
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let keyName = name ?? Self.defaultName()
            let keysDirectory = URL(fileURLWithPath: options.dataDirectory).appendingPathComponent("keys")
            let publicPath = keysDirectory.appendingPathComponent("\(keyName).public").path
            let secretPath = keysDirectory.appendingPathComponent("\(keyName).secret").path
            let authorizedPath = clientKeys.map(absolutePath) ?? keysDirectory.appendingPathComponent("authorized_keys").path
            do {
                try FileManager.default.createDirectory(
                    atPath: keysDirectory.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw CtlFailure(ExitStatus.unavailable, "cannot create \(keysDirectory.path): \(error.localizedDescription)")
            }
            for path in [publicPath, secretPath] where FileManager.default.fileExists(atPath: path) {
                throw CtlFailure(ExitStatus.usage, "\(path) already exists; choose another --name")
            }
            var keys: ZMQCurveKeyPair
            repeat {
                do throws(ZMQError) {
                    keys = try ZMQCurveKeyPair.generate()
                } catch {
                    throw CtlFailure(ExitStatus.unavailable, "cannot generate a CURVE key pair: \(error)")
                }
                // A line starting with '#' is a comment in the allow-lists, and Z85 has '#'.
            } while keys.publicKey.hasPrefix("#")
            try Self.createExclusively(secretPath, contents: keys.secretKey + "\n", mode: 0o600)
            do throws(CtlFailure) {
                try Self.createExclusively(publicPath, contents: keys.publicKey + "\n", mode: 0o644)
                var line = keys.publicKey
                if clientKeys != nil, case .success(let caller) = Self.callerLine(key: keys.publicKey, name: caller ?? keyName, allow: allow, rate: rate) {
                    line = caller.text
                }
                try Self.appendAuthorizedKey(line, to: authorizedPath)
            } catch {
                unlink(secretPath)
                unlink(publicPath)
                throw error
            }
            if options.json {
                let result: JSONValue = [
                    "publicKeyFile": .string(publicPath), "secretKeyFile": .string(secretPath), "publicKey": .string(keys.publicKey),
                ]
                printOut(prettyJSON(result))
            } else {
                printOut(keyValueLines([
                    ("public key file", publicPath), ("secret key file", secretPath), ("public key", keys.publicKey),
                    ("allowed in", authorizedPath),
                ]))
            }
        }
    }

    /// `client-YYYYMMDD-HHMMSS` in UTC.
    static func defaultName() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "client-" + formatter.string(from: Date())
    }

    /// Creates `path` (failing if it exists: `O_EXCL`) with `mode`, writes `contents`, syncs.
    static func createExclusively(_ path: String, contents: String, mode: mode_t) throws(CtlFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EEXIST { throw CtlFailure(ExitStatus.usage, "\(path) already exists; choose another --name") }
            throw CtlFailure(ExitStatus.unavailable, "cannot create \(path): \(reason)")
        }
        defer { close(descriptor) }
        // The umask may have removed bits, never added any; set the mode exactly.
        _ = fchmod(descriptor, mode)
        try writeAll(descriptor, Array(contents.utf8), path: path)
        _ = fsync(descriptor)
    }

    /// Appends `key` (a key, or a caller's line) as one line to the allow-list, creating it (mode
    /// 0644) if needed and starting a new line if the file does not end with one.
    static func appendAuthorizedKey(_ key: String, to path: String) throws(CtlFailure) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CtlFailure(ExitStatus.unavailable, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var line = Array((key + "\n").utf8)
        let size = lseek(descriptor, 0, SEEK_END)
        if size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
                line.insert(UInt8(ascii: "\n"), at: 0)
            }
        }
        try writeAll(descriptor, line, path: path)
        _ = fsync(descriptor)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(CtlFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CtlFailure(ExitStatus.unavailable, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

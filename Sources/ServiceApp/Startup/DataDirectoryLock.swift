import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// svcd's exclusive hold on its data directory: an advisory `flock` on `DATA_DIR/svcd.lock`,
/// held from start-up until the service has stopped. A second svcd on the same directory
/// cannot take it and stops at once (``DataDirectoryInUse``), instead of running beside the
/// first, overwriting its `endpoints.json` and deleting it on the way out. The kernel drops the
/// lock when the process dies, however it dies, so a crash never leaves the directory locked.
public final class DataDirectoryLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor = Mutex<Int32?>(nil)

    /// The lock file's name in a data directory.
    public static let fileName = "svcd.lock"

    /// Takes the lock of `dataDirectory` (which must exist), or throws ``DataDirectoryInUse``
    /// naming the process that holds it.
    public init(dataDirectory: String) throws {
        path = URL(fileURLWithPath: dataDirectory).appendingPathComponent(Self.fileName).path
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else {
            throw DataDirectoryError(path: path, action: "open the lock file", code: errno)
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.recordedPid(opened)
            close(opened)
            if code == EWOULDBLOCK {
                throw DataDirectoryInUse(dataDirectory: dataDirectory, holderPid: holder)
            }
            throw DataDirectoryError(path: path, action: "lock", code: code)
        }
        // Who holds it, for the message a second svcd prints.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(opened, 0)
        _ = pid.withUnsafeBytes { pwrite(opened, $0.baseAddress, $0.count, 0) }
        descriptor.withLock { $0 = opened }
    }

    deinit {
        release()
    }

    /// Gives the directory up (also when this value is released).
    public func release() {
        descriptor.withLock { held in
            if let opened = held { close(opened) }
            held = nil
        }
    }

    private static func recordedPid(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Another svcd holds the data directory's lock.
public struct DataDirectoryInUse: Error, CustomStringConvertible {
    /// The directory.
    public let dataDirectory: String
    /// The holder's process id, as it recorded it.
    public let holderPid: Int32?

    public var description: String {
        let holder = holderPid.map { "another svcd (pid \($0))" } ?? "another svcd"
        return "data directory \(dataDirectory) is in use by \(holder); stop it first, or give this one its own --data-dir"
    }
}

/// A data directory (or a file in it) could not be prepared.
public struct DataDirectoryError: Error, CustomStringConvertible {
    /// The file or directory.
    public let path: String
    /// What was being done.
    public let action: String
    /// The `errno`.
    public let code: Int32

    public var description: String { "cannot \(action) \(path): \(String(cString: strerror(code)))" }
}

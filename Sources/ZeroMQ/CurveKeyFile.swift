#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file holding one CURVE key (40 Z85 characters) on its first line, as svcd and
/// `svcctl keygen` write them: the one reader of key files for svcd, svcctl and RestaurantClient.
/// Blanks around the key are ignored; later lines are not read.
public enum CurveKeyFile {
    /// Why a key file gave no key.
    public enum Problem: Error, Sendable, Hashable {
        /// The file cannot be opened or read; `reason` is the system's (`strerror`).
        case unreadable(reason: String)
        /// Its first line is not a 40-character Z85 key.
        case noKey
    }

    /// At most this much of a file is read: a key line is 41 bytes, so anything longer before
    /// its first newline is not a key file.
    static let readLimit = 4_096

    /// The key on the first line of `path`.
    public static func key(at path: String) throws(Problem) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: readLimit)
        var count = 0
        while count < readLimit {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, readLimit - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
        }
        return try key(in: bytes.prefix(count))
    }

    /// The key on the first line of `contents`.
    public static func key(in contents: some Collection<UInt8>) throws(Problem) -> String {
        let line = contents.prefix { $0 != UInt8(ascii: "\n") }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        let text = String(decoding: line.drop(while: isBlank).reversed().drop(while: isBlank).reversed(), as: UTF8.self)
        guard ZMQCurve.isKey(text) else { throw .noKey }
        return text
    }
}

import Foundation
import ZeroMQ

/// A file of CURVE client public keys allowed to connect: one 40-character Z85 key per line; a
/// line whose first character is `#` is a comment (Z85 keys may contain `#`, so only the first
/// character counts), and blank lines and surrounding spaces are ignored. The file is read at
/// every check, so keys added or removed take effect with the next handshake, without a
/// restart; a file that cannot be read allows nobody.
public struct ClientKeyList: Sendable {
    /// The file.
    public let path: String

    /// The list in `path`.
    public init(path: String) {
        self.path = path
    }

    /// Whether `key` (Z85) is listed now.
    public func allows(_ key: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return Self.keys(in: text).contains(key)
    }

    /// The keys listed in `text`.
    public static func keys(in text: String) -> Set<String> {
        var keys = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) where line.first != "#" {
            let key = line.trimmingCharacters(in: .whitespaces)
            if ZMQCurve.isKey(key) { keys.insert(key) }
        }
        return keys
    }
}

import Foundation

/// A directory under the system's temporary directory, removed when the last reference goes.
final class TemporaryDirectory: Sendable {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "persistence-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

import Foundation

/// A directory under the system's temporary directory, removed when the last reference goes.
public final class TemporaryDirectory: Sendable {
    /// Its absolute path.
    public let path: String

    /// Creates a new, empty directory.
    public init() throws {
        path = NSTemporaryDirectory() + "restaurant-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

import Foundation
import WireContract

/// A cluster file: the svcd instances of one cluster (several svcd processes sharing one
/// PostgreSQL database), one per line.
///
/// ```text
/// # one instance per line: its data directory, or the path of its endpoints.json
/// /var/lib/svcd/a
/// /var/lib/svcd/b/endpoints.json
/// ../c
/// ```
///
/// Blank lines and lines whose first non-blank character is `#` are ignored; surrounding white
/// space is trimmed. A line naming a file that ends in `.json` is that instance's
/// `endpoints.json`; any other line is a data directory, whose `endpoints.json` is used.
/// Relative paths are relative to the directory holding the cluster file. Each instance's
/// `endpoints.json` is read when a client needs it, not when the cluster file is read, so a
/// cluster file may list instances that are not running yet.
public struct ClusterFile: Sendable, Hashable {
    /// The absolute path of each instance's `endpoints.json`, in file order, without duplicates.
    public let endpointsFiles: [String]

    /// A cluster of these `endpoints.json` files.
    public init(endpointsFiles: [String]) {
        self.endpointsFiles = endpointsFiles
    }

    /// Reads and parses the cluster file at `path`.
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when it cannot be read or lists no
    ///   instance.
    public static func read(_ path: String) throws(RestaurantClientError) -> ClusterFile {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .unavailable("cannot read the cluster file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unavailable("the cluster file \(path) is not UTF-8 text")
        }
        return try parse(text, relativeTo: url.deletingLastPathComponent().path, source: path)
    }

    /// Parses cluster-file text; relative paths are resolved against `directory`.
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when it lists no instance.
    public static func parse(_ text: String, relativeTo directory: String, source: String = "the cluster file") throws(RestaurantClientError) -> ClusterFile {
        var files: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let file = endpointsFile(for: line, relativeTo: directory)
            if !files.contains(file) { files.append(file) }
        }
        guard !files.isEmpty else {
            throw .unavailable("\(source) lists no instance (one data directory or endpoints.json per line)")
        }
        return ClusterFile(endpointsFiles: files)
    }

    /// The absolute `endpoints.json` path a data directory or endpoints-file path names.
    public static func endpointsFile(for path: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let base = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : URL(fileURLWithPath: directory).appendingPathComponent(expanded)
        let url = base.standardizedFileURL
        return url.pathExtension == "json" ? url.path : url.appendingPathComponent(EndpointsFile.fileName).path
    }
}

import ChildProcess
import Foundation
import WireJSON

/// A collector for svcd's spans in the tests: `Scripts/otlp-receiver.py` (a plain `http.server`
/// that decodes each OTLP/HTTP `ExportTraceServiceRequest` with opentelemetry-proto) on a free
/// port of 127.0.0.1, one JSON line per span received.
public final class OTLPReceiver: Sendable {
    /// The base URL to give `svcd --otlp-endpoint`.
    public let endpoint: String
    private let process: SpawnedProcess
    private let directory: String
    private let outPath: String

    /// The receiver's script, found from this file's place in the repository.
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/otlp-receiver.py").path

    private init(endpoint: String, process: SpawnedProcess, directory: String, outPath: String) {
        self.endpoint = endpoint
        self.process = process
        self.directory = directory
        self.outPath = outPath
    }

    /// Starts a receiver; with `hanging`, one that accepts connections and never answers.
    public static func start(hanging: Bool = false) async throws -> OTLPReceiver {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-receiver-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let outPath = directory + "/spans", errPath = directory + "/err"
        let process = try SpawnedProcess.spawn(
            "/usr/bin/env", ["python3", script] + (hanging ? ["--hang"] : []), stdout: .file(outPath), stderr: .file(errPath)
        )
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: outPath, encoding: .utf8), let line = text.split(separator: "\n").first,
               line.hasPrefix("listening "), let port = Int(line.dropFirst("listening ".count)) {
                return OTLPReceiver(endpoint: "http://127.0.0.1:\(port)", process: process, directory: directory, outPath: outPath)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = await process.stop(patience: .seconds(5))
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: directory)
        throw ChildFailure("the OTLP receiver did not start: \(stderr)")
    }

    /// The spans received so far, in arrival order.
    public var spans: [JSONValue] {
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        // Complete lines only: the last one may still be being written.
        let complete = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return complete.split(separator: "\n").dropFirst().compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }

    /// Polls (with a deadline) until `done` holds for the spans received; returns them.
    public func spans(within seconds: Double = 20, until done: ([JSONValue]) -> Bool) async throws -> [JSONValue] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var received = spans
        while !done(received), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            received = spans
        }
        return received
    }

    /// Stops the receiver and removes its files.
    public func stop() async {
        _ = await process.stop(patience: .seconds(5))
        try? FileManager.default.removeItem(atPath: directory)
    }
}

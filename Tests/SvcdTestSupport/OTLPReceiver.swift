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
        let started = try await ListeningScript.start(
            [script] + (hanging ? ["--hang"] : []), tag: "otlp-receiver", what: "the OTLP receiver did not start"
        ) { text in
            text.split(separator: "\n").first.flatMap { $0.hasPrefix("listening ") ? Int($0.dropFirst("listening ".count)) : nil }
        }
        return OTLPReceiver(endpoint: "http://127.0.0.1:\(started.port)", process: started.process, directory: started.directory, outPath: started.outPath)
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

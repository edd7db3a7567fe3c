import ChildProcess
import Foundation
import ServerProcesses
import Synchronization
import Testing
import WireContract
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Finds the project's executables (`svcd`, `svcctl`): the path in an environment variable if set
/// (`SVCD_PATH`, `SVCCTL_PATH`), otherwise the build directory that holds the test runner
/// (`.build/<triple>/debug/`), where `swift build` puts them.
public enum ExecutableLocator {
    /// An executable that could not be found, with the places searched.
    public struct NotFound: Error, CustomStringConvertible {
        public let name: String
        public let variable: String
        public let searched: [String]
        public var description: String {
            "\(name) executable not found; build it first (`swift build`) or set \(variable). Looked in: "
                + searched.joined(separator: ", ")
        }
    }

    /// The svcd executable.
    public static func svcd() throws -> String { try path(of: "svcd", variable: "SVCD_PATH") }

    /// The svcctl executable.
    public static func svcctl() throws -> String { try path(of: "svcctl", variable: "SVCCTL_PATH") }

    /// The executable `name`: `$variable` if set, else next to the test runner.
    public static func path(of name: String, variable: String) throws -> String {
        let files = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment[variable], !explicit.isEmpty {
            guard files.isExecutableFile(atPath: explicit) else { throw NotFound(name: name, variable: variable, searched: ["\(variable)=\(explicit)"]) }
            return explicit
        }
        var starts: [URL] = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            // The runner may sit inside a bundle directory (…/debug/X.xctest/…); walk up a little.
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name).path
                var isDirectory: ObjCBool = false
                if !searched.contains(candidate) { searched.append(candidate) }
                if files.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                    files.isExecutableFile(atPath: candidate)
                {
                    return candidate
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        throw NotFound(name: name, variable: variable, searched: searched)
    }
}

extension EndpointsFile {
    /// The address of `useCase`, or a test failure.
    public func address(_ useCase: UseCaseName) throws -> String {
        try #require(useCases[useCase], "endpoints.json has no address for \(useCase.rawValue)")
    }
}

/// One svcd child process with its own temporary data directory, stderr captured to a file.
public final class SvcdChild: Sendable {
    private let svcd: SvcdProcess
    private var process: SpawnedProcess { svcd.process }
    /// svcd's data directory.
    public let dataDirectory: String
    /// Where svcd's stderr goes.
    public let stderrPath: String
    /// The temporary directory this child created (removed by `stop()`), if any.
    public let ownedDirectory: String?

    private init(svcd: SvcdProcess, dataDirectory: String, stderrPath: String, ownedDirectory: String?) {
        self.svcd = svcd
        self.dataDirectory = dataDirectory
        self.stderrPath = stderrPath
        self.ownedDirectory = ownedDirectory
    }

    /// A child dropped while it still runs (a test that threw before its `stop()`) is killed and
    /// its temporary directory removed, so that no svcd outlives the test that started it.
    deinit {
        if process.isRunning {
            process.stopBlocking(sending: SIGKILL, patience: SpawnedProcess.killPatience)
        }
        if let ownedDirectory { try? FileManager.default.removeItem(atPath: ownedDirectory) }
    }

    /// The child's process id.
    public var pid: Int32 { process.pid }
    /// Whether the child still runs.
    public var isRunning: Bool { process.isRunning }

    /// Whether the child has ended by exiting (not by a signal).
    public var exitedNormally: Bool {
        if case .exited? = process.ended { return true }
        return false
    }

    /// Exit status when the child exited normally, `nil` while running or when a signal killed it.
    public var exitStatus: Int32? {
        if case .exited(let status)? = process.ended { return status }
        return nil
    }

    /// What svcd wrote to stderr so far.
    public var stderrText: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// The queue-time target svcd children get unless a test gives `--queue-time-target` itself:
    /// 10 s. These are debug builds on a shared two-core machine, where the 250 ms default turns
    /// the deliberate pipelines of tests about other things (draining, kills, invariants) into
    /// `overloaded` replies; the queue-time tests set the target they prove.
    public static let testQueueTimeTarget = ["--queue-time-target", "10000"]

    /// Starts `svcd --port-base <portBase, default 0: ephemeral> --data-dir <tmp> [--seed-sample] <arguments>`
    /// (with ``testQueueTimeTarget`` unless `arguments` set one). With `dataDirectory`, svcd uses
    /// that directory (which outlives the child, e.g. to restart on the same store) and stderr
    /// goes next to it. With a `launcher` (e.g. `ip netns exec NAME`), svcd runs through it: the
    /// launcher must exec svcd in its own process, so the pid stays svcd's. A seeded child on a
    /// new SQLite data directory starts from a copy of the process's ``SeededStoreTemplate``
    /// (the same store its own seeding would make, in a tenth of the time), unless
    /// `copyingSeededStore` is false.
    public static func launch(
        seed: Bool, copyingSeededStore: Bool = true, arguments: [String] = [], dataDirectory existing: String? = nil, portBase: Int = 0,
        launcher: [String] = []
    ) async throws -> SvcdChild {
        let files = FileManager.default
        let directory: URL
        if let existing {
            directory = URL(fileURLWithPath: existing).deletingLastPathComponent()
        } else {
            directory = files.temporaryDirectory.appendingPathComponent("integrationtests-\(UUID().uuidString)")
        }
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        let dataDirectory = existing ?? directory.appendingPathComponent("data").path
        let stderrPath = directory.appendingPathComponent("svcd-\(UUID().uuidString.prefix(8)).stderr").path
        let svcd: SvcdProcess
        do {
            if seed, copyingSeededStore, existing == nil, !arguments.contains(where: { $0.hasPrefix("--store") }) {
                try await SeededStoreTemplate.copy(into: dataDirectory)
            }
            svcd = try SvcdProcess.spawn(
                executable: try ExecutableLocator.svcd(), dataDirectory: dataDirectory, portBase: portBase,
                arguments: (seed ? ["--seed-sample"] : []) + (arguments.contains { $0.hasPrefix("--queue-time-target") } ? [] : testQueueTimeTarget) + arguments,
                logPath: stderrPath, launcher: launcher
            )
        } catch {
            if existing == nil { try? files.removeItem(at: directory) }
            throw error
        }
        return SvcdChild(svcd: svcd, dataDirectory: dataDirectory, stderrPath: stderrPath, ownedDirectory: existing == nil ? directory.path : nil)
    }

    /// Waits (polling, with a deadline) for this child's `endpoints.json` (a file left by a
    /// killed predecessor names another pid) and parses it. Fails early if the child exits first.
    public func endpoints(timeout seconds: Double = 30) async throws -> EndpointsFile {
        do {
            return try await svcd.waitUntilServing(timeout: .milliseconds(Int(seconds * 1000)))
        } catch let failure as ServerProcessFailure {
            throw ChildFailure("\(failure)")
        }
    }

    /// The use-case names of this child's `endpoints.json` in the order the file lists them
    /// (``EndpointsFile`` keeps them by name, not in file order).
    public func endpointsFileUseCaseOrder() throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: EndpointsFile.path(in: dataDirectory)))
        let useCases = try #require(try JSONParser.parse(Array(data))["useCases"]?.objectValue, "endpoints.json has no useCases object")
        return useCases.keys
    }

    /// Sends a signal to the child.
    public func send(signal: Int32) {
        process.send(signal: signal)
    }

    /// Polls until the child has exited or `seconds` pass; returns whether it exited.
    public func waitForExit(timeout seconds: Double) async -> Bool {
        await process.waitForEnd(timeout: seconds) != nil
    }

    /// Stops the child if it still runs: SIGTERM, then SIGKILL after a deadline; removes the
    /// temporary directory.
    public func stop() async {
        if isRunning { await process.stop(patience: .seconds(10)) }
        if let ownedDirectory { try? FileManager.default.removeItem(atPath: ownedDirectory) }
    }
}

/// A test-support failure with a message.
public struct ChildFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Launches svcd, runs `body`, and always stops the child (also when `body` throws).
public func withSvcd<T>(
    seed: Bool = true, copyingSeededStore: Bool = true, arguments: [String] = [], _ body: (SvcdChild) async throws -> T
) async throws -> T {
    let child = try await SvcdChild.launch(seed: seed, copyingSeededStore: copyingSeededStore, arguments: arguments)
    let result: T
    do {
        result = try await body(child)
    } catch {
        await child.stop()
        throw error
    }
    await child.stop()
    return result
}

/// One seeded svcd shared by a suite: launched before its tests, stopped after them.
public struct SharedSvcd: SuiteTrait, TestScoping {
    /// The running child and its endpoints.
    public struct Running: Sendable {
        public let child: SvcdChild
        public let endpoints: EndpointsFile
    }

    @TaskLocal static var current: Running?

    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            try await SharedSvcd.$current.withValue(Running(child: child, endpoints: endpoints)) {
                try await function()
            }
        }
    }

    /// The suite's svcd; fails outside a `.sharedSvcd` suite.
    public static func running() throws -> Running {
        try #require(current, "the test must run inside a suite with the .sharedSvcd trait")
    }
}

extension Trait where Self == SharedSvcd {
    /// Runs the suite against one `svcd --seed-sample` child process.
    public static var sharedSvcd: Self { SharedSvcd() }
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The SQLite store of one `svcd --seed-sample`, made once per test process; every later seeded
/// SQLite svcd starts from a copy of it: the child processes of
/// ``SvcdChild/launch(seed:copyingSeededStore:arguments:dataDirectory:portBase:launcher:)`` and the in-process
/// services of TransportTests.
///
/// Seeding goes through the use cases, about 3,400 writes: 1.5 s of a debug svcd's start and
/// 3.6 s of a ThreadSanitizer one, for each of the ~75 seeded services of a run. A copy of the
/// finished sample is the same store, so the child still runs with `--seed-sample`, finds the
/// sample finished and leaves it as it is, exactly as a restart of a seeded svcd does. Seeding
/// itself is proven where it is the subject: `SampleSeedingTests` (every interrupted step
/// finished by the next start) and the cluster's start-up tests (of several instances, exactly
/// one seeds).
///
/// The template lives in the temporary directory under the test process's pid and is removed
/// when that process exits.
public actor SeededStoreTemplate {
    static let shared = SeededStoreTemplate()

    /// Copies the template's store into `dataDirectory` (created if need be), making the
    /// template first if this process has none yet.
    public static func copy(into dataDirectory: String) async throws {
        try await shared.copy(into: dataDirectory)
    }

    /// The store files a seeded svcd leaves in its data directory, in the order they are copied
    /// (the write-ahead log is empty after a clean stop; it is copied all the same in case not).
    static let storeFiles = ["store.sqlite", "store.sqlite-wal"]

    private var made: Task<String, any Error>?

    /// The template's data directory, made by the first call (concurrent first calls share
    /// one seeding run).
    private func dataDirectory() async throws -> String {
        if let made { return try await made.value }
        let task = Task { try await Self.make() }
        made = task
        return try await task.value
    }

    private func copy(into dataDirectory: String) async throws {
        let template = try await self.dataDirectory()
        let files = FileManager.default
        try files.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        for name in Self.storeFiles where files.fileExists(atPath: template + "/" + name) {
            try files.copyItem(atPath: template + "/" + name, toPath: dataDirectory + "/" + name)
        }
    }

    /// Where this process's template lives.
    private static var directory: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("svcd-seeded-template-\(getpid())").path
    }

    /// Seeds a store with a real `svcd --seed-sample`, stops it with SIGTERM and checks it
    /// exited 0, so the copies are of a store svcd closed.
    private static func make() async throws -> String {
        let directory = Self.directory
        try? FileManager.default.removeItem(atPath: directory)
        atexit { try? FileManager.default.removeItem(atPath: SeededStoreTemplate.directory) }
        let dataDirectory = directory + "/data"
        let child = try await SvcdChild.launch(seed: true, dataDirectory: dataDirectory)
        do {
            _ = try await child.endpoints(timeout: 120)
        } catch {
            await child.stop()
            throw ChildFailure("the seeded store template's svcd did not start: \(error)\n\(child.stderrText)")
        }
        await child.stop()
        guard child.exitStatus == 0, FileManager.default.fileExists(atPath: dataDirectory + "/" + storeFiles[0]) else {
            throw ChildFailure("the seeded store template's svcd did not stop cleanly (\(child.exitStatus.map(String.init) ?? "killed")): \(child.stderrText)")
        }
        return dataDirectory
    }
}

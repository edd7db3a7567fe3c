import ArgumentParser
import Foundation
import RestaurantClient

/// The instances a command talks to when it takes several (`stress` sends its load to them,
/// `events` follows their log): one svcd instance or several (a cluster sharing one database),
/// named by data directory (`--data-dir`, repeatable) and by cluster file (`--cluster`,
/// RestaurantClient's ``ClusterFile`` format).
struct InstanceTargetOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "An svcd instance's data directory, holding endpoints.json and keys/; repeat for several instances (default: env SVC_DATA_DIR, else ./svc-data, when neither --data-dir nor --cluster is given).",
            valueName: "data-dir"))
    var dataDirs: [String] = []

    @Option(
        name: .customLong("cluster"),
        help: ArgumentHelp(
            "A cluster file: one instance per line, its data directory or its endpoints.json; # comments. Repeatable; its instances follow those of --data-dir.",
            valueName: "file"))
    var clusterFiles: [String] = []

    /// The instances named, in order (each `--data-dir`, then each cluster file's lines), each
    /// once: a display name and the absolute path of its `endpoints.json`. A cluster file that
    /// cannot be read or names no instance is a usage error (exit 64).
    func endpointsFiles() throws(CtlFailure) -> [(name: String, endpointsFile: String)] {
        var named: [(name: String, endpointsFile: String)] = []
        func add(name: String, endpointsFile: String) {
            if !named.contains(where: { $0.endpointsFile == endpointsFile }) { named.append((name, endpointsFile)) }
        }
        var directories = dataDirs
        if directories.isEmpty, clusterFiles.isEmpty {
            directories = [ProcessInfo.processInfo.environment["SVC_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "./svc-data"]
        }
        for directory in directories {
            let absolute = absolutePath(directory)
            add(name: absolute, endpointsFile: URL(fileURLWithPath: absolute).appendingPathComponent(EndpointsFile.fileName).path)
        }
        for path in clusterFiles {
            let cluster: ClusterFile
            do throws(RestaurantClientError) {
                cluster = try ClusterFile.read(absolutePath(path))
            } catch {
                // The operator named a file that is not a usable cluster description: a usage error,
                // unlike an instance in it that is not running (that one is skipped, see LoadEngine's LoadCluster).
                if case .unavailable(let reason) = error { throw CtlFailure(ExitStatus.usage, "--cluster: \(reason)") }
                throw CtlFailure(ExitStatus.usage, "--cluster: \(error)")
            }
            for file in cluster.endpointsFiles {
                let url = URL(fileURLWithPath: file)
                add(name: url.lastPathComponent == EndpointsFile.fileName ? url.deletingLastPathComponent().path : file, endpointsFile: file)
            }
        }
        return named
    }
}

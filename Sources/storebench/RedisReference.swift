import ChildProcess
import Foundation

/// The second reference for durable writes: Redis with `appendonly yes` and `appendfsync always`
/// (every write is in the append-only file, fsynced, before its reply), loaded by
/// `redis-benchmark -t set -c <clients> -d 120`. A server of its own in a temporary directory on
/// a free loopback port, stopped at the end. Like the service's group commit, Redis fsyncs once
/// per event-loop turn for all the writes that turn took in.
final class RedisReference {
    /// What one redis-benchmark run did.
    struct Outcome {
        var perSecond: Double
        var p50Micros: Double
        var p99Micros: Double
        /// CPU the Redis server spent per SET (all its threads), microseconds.
        var serverCPUMicrosPerWrite: Double
    }

    private let server: SpawnedProcess
    private let benchmark: String
    private let cli: String
    private let port: Int
    private let clients: Int
    private let seconds: Double
    /// SETs per run: sized from the previous run's rate to last about `seconds`.
    private var requests: Int

    /// Starts `redis-server` (found in PATH) in `directory`; `nil` with the reason printed when
    /// Redis is not installed.
    static func start(directory: String, clients: Int, seconds: Double) async throws -> RedisReference? {
        guard let server = which("redis-server"), let benchmark = which("redis-benchmark"), let cli = which("redis-cli") else {
            print("Redis reference: skipped, redis-server, redis-benchmark and redis-cli are not all in PATH (Debian: apt-get install redis-server)")
            return nil
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A port that was free a moment ago may be taken by the time Redis binds it; Redis then
        // exits, and the next attempt takes another.
        for attempt in 1...3 {
            let port = try freeLoopbackPort()
            if let reference = try await start(server, benchmark: benchmark, cli: cli, port: port, directory: directory, clients: clients, seconds: seconds) {
                return reference
            }
            if attempt == 3 { throw BenchFailure("redis-server did not start on a free port in 3 attempts (log: \(directory)/redis.log)") }
        }
        return nil
    }

    /// Starts the server on `port`; `nil` when it exited (the port was taken).
    private static func start(
        _ server: String, benchmark: String, cli: String, port: Int, directory: String, clients: Int, seconds: Double
    ) async throws -> RedisReference? {
        let process = try SpawnedProcess.spawn(
            server,
            [
                "--port", "\(port)", "--bind", "127.0.0.1", "--dir", directory, "--daemonize", "no",
                "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--logfile", directory + "/redis.log",
            ]
        )
        let reference = RedisReference(server: process, benchmark: benchmark, cli: cli, port: port, clients: clients, seconds: seconds)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let ping = try await ChildTool.run(cli, ["-p", "\(port)", "ping"], timeout: .seconds(5))
            if ping.stdout.hasPrefix("PONG") { break }
            guard process.isRunning else { return nil }
            guard ContinuousClock.now < deadline else {
                reference.stop()
                throw BenchFailure("redis-server did not answer on port \(port) within 10 s (log: \(directory)/redis.log)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return reference
    }

    private init(server: SpawnedProcess, benchmark: String, cli: String, port: Int, clients: Int, seconds: Double) {
        self.server = server
        self.benchmark = benchmark
        self.cli = cli
        self.port = port
        self.clients = clients
        self.seconds = seconds
        requests = max(1000, Int(seconds * 40_000))
    }

    /// One redis-benchmark run of about `seconds`.
    func run() async throws -> Outcome {
        let pid = server.pid
        guard let before = ProcStat.read(pid) else { throw BenchFailure("redis-server (pid \(pid)) has exited") }
        let output = try await ChildTool.run(
            benchmark, ["-p", "\(port)", "-t", "set", "-c", "\(clients)", "-d", "120", "-n", "\(requests)", "-r", "1000000", "--csv"],
            timeout: .seconds(Int(seconds * 20) + 60)
        ).succeeded("redis-benchmark")
        guard let after = ProcStat.read(pid) else { throw BenchFailure("redis-server (pid \(pid)) has exited") }
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        guard let line = output.stdout.split(separator: "\n").first(where: { $0.hasPrefix("\"SET\"") }) else {
            throw BenchFailure("redis-benchmark printed no SET line:\n\(output.stdout)\n\(output.stderr)")
        }
        let fields = line.split(separator: ",").map { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
        guard fields.count >= 7, let rate = fields[1], let p50 = fields[4], let p99 = fields[6] else {
            throw BenchFailure("redis-benchmark's SET line is not as expected: \(line)")
        }
        let cpuSeconds = Double(after.ownTicks - before.ownTicks) / ProcStat.ticksPerSecond
        let outcome = Outcome(
            perSecond: rate, p50Micros: p50 * 1000, p99Micros: p99 * 1000,
            serverCPUMicrosPerWrite: cpuSeconds * 1e6 / Double(requests)
        )
        requests = max(1000, Int(rate * seconds))
        return outcome
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s).
    func stop() {
        server.stopBlocking(patience: .seconds(5))
    }

    deinit { stop() }

    /// A loopback TCP port that nothing listens on right now (bound to port 0, then released).
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket(): errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchFailure("bind() to 127.0.0.1:0: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The full path of `tool` in PATH.
    private static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

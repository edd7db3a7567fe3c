import ArgumentParser
import Domain
import Foundation
import Logging
import Metrics
import Persistence
import ServiceApp

#if canImport(Glibc)
import Glibc
#endif

/// `svcd`: the restaurant service. Parses flags and environment into a `ServiceConfiguration`,
/// bootstraps logging, and runs what `buildService(configuration:)` returns until SIGTERM/SIGINT.
@main
struct Svcd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svcd",
        abstract: "The restaurant platform service: one ZeroMQ ROUTER endpoint per use case."
    )

    @Option(name: .long, help: "Directory for the store, keys and endpoints.json (env SVC_DATA_DIR; default ./svc-data).")
    var dataDir: String?

    @Option(name: .long, help: "Address to bind: an IPv4 address of this machine (0.0.0.0 or * for all interfaces).")
    var host: String = "127.0.0.1"

    // `.unconditional`: a negative number is this option's value (refused by validate() with a
    // message naming the option), not an unknown flag.
    @Option(name: .long, parsing: .unconditional, help: "Admin endpoint port; use cases bind the ports after it (0: ephemeral ports).")
    var portBase: Int = 7100

    @Option(name: .long, help: "Serve GET /metrics (Prometheus), /healthz and /readyz over HTTP on this port of --host (default: no HTTP listener; 0: an ephemeral port).")
    var httpPort: Int?

    @Flag(name: .long, help: "Load the deterministic sample data set when the store is empty.")
    var seedSample = false

    @Option(name: .long, help: "Where data lives: sqlite (DATA_DIR/store.sqlite, durable), postgres (a PostgreSQL database several instances can share; see --database-url) or memory (lost at exit; for tests).")
    var store: String = "sqlite"

    @Option(name: .long, help: "The PostgreSQL database of --store postgres: postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]...]/DATABASE[?sslmode=MODE&target_session_attrs=read-write] (env SVC_DATABASE_URL). With several hosts, svcd uses the first that fits target_session_attrs and moves when it stops fitting.")
    var databaseURL: String?

    @Option(name: .long, parsing: .unconditional, help: "Connections to PostgreSQL this instance keeps open at most (--store postgres).")
    var databaseConnections: Int = ServiceConfiguration().databaseConnections

    @Option(name: .long, parsing: .unconditional, help: "Tax rate applied to new orders, a decimal fraction such as 0.08.")
    var taxRate: String = "0.08"

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(name: .long, help: "File of client public keys (Z85, one per line; # starts a comment line) allowed on the use-case endpoints, which become CURVE servers (encrypted; unlisted clients get no connection). Changes apply without a restart.")
    var clientKeys: String?

    @Flag(name: .long, help: "Serve the use-case endpoints in plaintext on a --host that is not a loopback address (without --client-keys svcd refuses to).")
    var allowPlaintext = false

    @Option(name: .long, help: "Export a span per request over OTLP/HTTP to this collector (its base URL, e.g. http://127.0.0.1:4318; spans go to URL/v1/traces). Env OTEL_EXPORTER_OTLP_ENDPOINT. Default: no spans.")
    var otlpEndpoint: String?

    @Option(name: .long, parsing: .unconditional, help: "With --otlp-endpoint: the share of the traces svcd starts itself that it exports, 0 to 1 (a request with a traceparent follows its sampled flag). Env OTEL_TRACES_SAMPLER_ARG; default 1.")
    var traceSampling: Double?

    @Option(name: .long, parsing: .unconditional, help: "Requests each use case may have taken and not yet answered; beyond that, requests are answered overloaded at once.")
    var maxInFlight: Int = ServiceConfiguration().maxInFlight

    @Option(name: .long, parsing: .unconditional, help: "Milliseconds a request may wait for its turn (in its endpoint's queue, for a read thread, a commit or a database connection); one that waited longer is answered overloaded, with no effect.")
    var queueTimeTarget: Int = Int(ServiceConfiguration().queueTimeTarget / .milliseconds(1))

    @Option(name: .long, parsing: .unconditional, help: "Keep events in the event log at least this many hours, a whole number of at least 1 (default 168: seven days).")
    var eventRetention: Int = ServiceConfiguration().eventRetentionHours

    @Option(name: .long, parsing: .unconditional, help: "Live-stream messages queued for one subscriber at most; beyond it that subscriber misses messages (and reads them from the event log).")
    var eventSubscriberBuffer: Int = ServiceConfiguration().eventSubscriberBuffer

    // Measuring only: the cost of the event log is this build with and without it. Breaks the
    // contract (writes append no events), so it is not in --help.
    @Flag(name: .long, help: .hidden)
    var benchmarkWithoutEvents = false

    func validate() throws {
        guard TaxRate(decimal: taxRate) != nil else {
            throw ValidationError("--tax-rate must be a decimal fraction between 0 and 1 with at most 6 decimals, e.g. 0.08")
        }
        guard HostAddress.isBindable(host) else {
            throw ValidationError("--host \(host) is not an IPv4 address (e.g. 127.0.0.1, or 0.0.0.0 or * for all interfaces)")
        }
        if let clientKeys {
            guard FileManager.default.isReadableFile(atPath: clientKeys) else {
                throw ValidationError("--client-keys \(clientKeys): no such file, or not readable")
            }
        } else if !allowPlaintext && !HostAddress.isLoopback(host) {
            throw ValidationError(
                "--host \(host) is not a loopback address: the use-case endpoints would take plaintext requests from the network; give --client-keys FILE (CURVE, listed clients only) or --allow-plaintext"
            )
        }
        guard (0...65_000).contains(portBase) else {
            throw ValidationError("--port-base must be between 0 and 65000")
        }
        guard ServiceConfiguration.StoreKind(rawValue: store) != nil else {
            throw ValidationError("--store must be one of: \(ServiceConfiguration.StoreKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let httpPort, !(0...65_535).contains(httpPort) {
            throw ValidationError("--http-port must be between 0 and 65535")
        }
        guard (1...1_000_000).contains(maxInFlight) else {
            throw ValidationError("--max-in-flight must be between 1 and 1000000")
        }
        guard (1...60_000).contains(queueTimeTarget) else {
            throw ValidationError("--queue-time-target must be between 1 and 60000 milliseconds")
        }
        guard (1...1_000_000).contains(eventRetention) else {
            throw ValidationError("--event-retention must be a whole number of hours between 1 and 1000000")
        }
        guard (1...10_000_000).contains(eventSubscriberBuffer) else {
            throw ValidationError("--event-subscriber-buffer must be between 1 and 10000000 messages")
        }
        if let endpoint = resolvedOTLPEndpoint {
            guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://"), endpoint.count > "https://".count else {
                throw ValidationError("--otlp-endpoint \(endpoint) is not an http:// or https:// URL (e.g. http://127.0.0.1:4318)")
            }
        }
        if let traceSampling, !(0...1).contains(traceSampling) {
            throw ValidationError("--trace-sampling must be between 0 and 1, e.g. 0.01")
        }
        if traceSampling == nil, let text = ProcessInfo.processInfo.environment["OTEL_TRACES_SAMPLER_ARG"], !text.isEmpty {
            guard let ratio = Double(text), (0...1).contains(ratio) else {
                throw ValidationError("OTEL_TRACES_SAMPLER_ARG \(text) must be a number between 0 and 1, e.g. 0.01")
            }
        }
        guard (2...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be between 2 and 1000")
        }
        if store == ServiceConfiguration.StoreKind.postgres.rawValue {
            guard let url = resolvedDatabaseURL else {
                throw ValidationError("--store postgres needs --database-url URL (or the environment variable SVC_DATABASE_URL)")
            }
            do {
                _ = try PostgresURL(parsing: url)
            } catch {
                throw ValidationError("--database-url: \(error)")
            }
        } else if databaseURL != nil {
            throw ValidationError("--database-url is only for --store postgres")
        }
    }

    /// `--otlp-endpoint`, else `OTEL_EXPORTER_OTLP_ENDPOINT`.
    private var resolvedOTLPEndpoint: String? {
        otlpEndpoint ?? ProcessInfo.processInfo.environment["OTEL_EXPORTER_OTLP_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--trace-sampling`, else `OTEL_TRACES_SAMPLER_ARG`, else 1.
    private var resolvedTraceSampling: Double {
        traceSampling ?? ProcessInfo.processInfo.environment["OTEL_TRACES_SAMPLER_ARG"].flatMap(Double.init) ?? 1
    }

    /// `--database-url`, else `SVC_DATABASE_URL`.
    private var resolvedDatabaseURL: String? {
        databaseURL ?? ProcessInfo.processInfo.environment["SVC_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        // Files svcd creates (store, WAL, backups, keys) are its user's alone: they hold
        // people's e-mail addresses and the admin secret key.
        umask(0o077)
        // The admin endpoint's setLogLevel changes this control; every handler follows it.
        let levelControl = LogLevelControl(Logger.Level(rawValue: logLevel) ?? .info)
        LoggingSystem.bootstrap { label in levelControl.handler(label: label) }
        // Once per process, here and not in buildService: the service records through the
        // factory it is handed, and libraries that use the global system land in the same text.
        let metrics = ServiceMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        var configuration = ServiceConfiguration()
        configuration.dataDirectory = dataDir ?? ProcessInfo.processInfo.environment["SVC_DATA_DIR"] ?? configuration.dataDirectory
        configuration.host = host
        configuration.portBase = portBase
        configuration.seedSample = seedSample
        configuration.store = ServiceConfiguration.StoreKind(rawValue: store) ?? .sqlite
        configuration.taxRate = TaxRate(decimal: taxRate)!
        configuration.maxInFlight = maxInFlight
        configuration.queueTimeTarget = .milliseconds(queueTimeTarget)
        configuration.clientKeysPath = clientKeys.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        configuration.httpPort = httpPort
        configuration.eventRetentionHours = eventRetention
        configuration.eventSubscriberBuffer = eventSubscriberBuffer
        configuration.recordsEvents = !benchmarkWithoutEvents
        configuration.tracing = resolvedOTLPEndpoint.map { TracingConfiguration(endpoint: $0, samplingRatio: resolvedTraceSampling) }
        if configuration.store == .postgres {
            configuration.databaseURL = try resolvedDatabaseURL.map { try PostgresURL(parsing: $0) }
            configuration.databaseConnections = databaseConnections
        }
        let logger = Logger(label: "svcd")
        try await ShutdownSignals.trapping(dataDirectory: configuration.dataDirectory, logger: logger) { signals in
            let service: RestaurantService
            do {
                service = try await buildService(configuration: configuration, logger: logger, logLevel: levelControl, metrics: metrics)
            } catch {
                logger.critical("svcd cannot start: \(error)")
                printError("svcd: cannot start: \(error)")
                throw ExitCode(SvcdExitCode.forStartup(error))
            }
            signals.serving(service)
            do {
                try await service.run()
            } catch {
                logger.critical("svcd failed: \(error)")
                printError("svcd: failed: \(error)")
                throw ExitCode(SvcdExitCode.failed)
            }
        }
        logger.info("svcd stopped")
    }
}

/// Writes `message` and a newline to stderr.
private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

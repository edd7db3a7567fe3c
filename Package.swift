// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "restaurant-service",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "svcd", targets: ["svcd"]),
        .executable(name: "svcbench", targets: ["svcbench"]),
        .executable(name: "storebench", targets: ["storebench"]),
        .executable(name: "svcctl", targets: ["svcctl"]),
        .library(name: "RestaurantClient", targets: ["RestaurantClient"]),
        .library(name: "Domain", targets: ["Domain"]),
    ],
    traits: [
        // svcd's OTLP/HTTP span exporter (swift-otel, AsyncHTTPClient, SwiftNIO SSL: minutes of
        // a first build). On by default; the ThreadSanitizer build (.ci/tsan) leaves it out.
        .trait(name: "OTLP", description: "Export spans over OTLP/HTTP with swift-otel (svcd --otlp-endpoint)."),
        .default(enabledTraits: ["OTLP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Only its OTLP/HTTP exporter: the gRPC one would pull in grpc-swift.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Pure business core: entities, use cases, ports. No dependencies, no imports.
        // Its async functions run on their caller's executor (NonisolatedNonsendingByDefault):
        // an endpoint's use case then runs on the endpoint's socket thread instead of switching
        // to the generic executor and back around every repository call, and each switch there
        // is a queued job (see Docs/benchmarks/HISTORY.md, "Why the endpoint's work runs on its socket thread").
        .target(name: "Domain", swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        // Repository implementations behind Domain's protocols: SQLite (the embedded default,
        // with group commit), PostgreSQL (several svcd instances on one database) and in-memory
        // actors for tests. Records and mappers live here, and the adapters of Domain's ports
        // (Adapters/: the system clock, time-ordered ids, a fixed tax rate, and the fixed clock
        // and sequential ids the sample data set is made with).
        .target(name: "Persistence", dependencies: [
            "Domain", "Telemetry",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for binding values straight to GRDB's statements (Database.bindInPlace).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        // libzmq from Debian's libzmq3-dev (zmq.h in /usr/include, the module map links zmq);
        // stays internal to the ZeroMQ module. No pkgConfig: Debian's libzmq.pc adds
        // `-isystem /usr/include/mit-krb5`, which SwiftPM refuses with a warning on every build.
        .systemLibrary(name: "CZeroMQ"),
        // Thin Swift binding over libzmq: context, sockets, messages, poll, CURVE, typed errors.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"]),
        // Allocation-light JSON parser and writer for the wire protocol.
        .target(name: "WireJSON"),
        // The outside contract's names, spelled once: use cases (their fixed order, which are
        // writes), error codes (which are safe to resend), the envelope's members,
        // endpoints.json (reading and writing), admin operations; and each use case's and event
        // type's JSON Schemas, whose ranges and lengths come from Domain's rules.
        .target(name: "WireContract", dependencies: ["Domain", "WireJSON"]),
        // SplitMix64, the one seeded generator: the sample data, `svcctl stress --seed` and the
        // tests' random inputs come out the same on every run. No dependencies.
        .target(name: "SeededRandom"),
        // What a request's trace carries into the store: the tracer of the store's child spans
        // and the writer's traceparent, which the events a write appends carry. On
        // swift-distributed-tracing's API only; the exporter is chosen by the composition root.
        .target(name: "Telemetry", dependencies: [
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        // Presentation: one actor-hosted ROUTER endpoint per use case, wire DTOs, error codes.
        .target(name: "Transport", dependencies: [
            "Domain", "ZeroMQ", "WireJSON", "WireContract", "SeededRandom", "Telemetry",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // Composition root: buildService(configuration:) wires every concrete type.
        .target(name: "ServiceApp", dependencies: [
            "Domain", "Persistence", "Transport", "ZeroMQ", "WireJSON", "WireContract", "SeededRandom", "Telemetry",
            .product(name: "Logging", package: "swift-log"),
            // The OTLP/HTTP span exporter, with the OTLP trait.
            .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            // The monitoring HTTP listener (NIOHTTP1) and the registry it serves.
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .executableTarget(name: "svcd", dependencies: [
            "ServiceApp", "Persistence",
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Client library for other Swift services: typed async calls per use case.
        // Its calls carry the task's trace context (swift-distributed-tracing's InstrumentationSystem).
        .target(name: "RestaurantClient", dependencies: [
            "ZeroMQ", "WireJSON", "WireContract", .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        // Measuring helpers of the benchmark executables and the load engine: the monotonic
        // clock, CPU per thread.
        .target(name: "BenchmarkSupport"),
        // SpawnedProcess, the one posix_spawn of the repository (not Foundation's Process). No dependencies.
        .target(name: "ChildProcess"),
        // The servers the tests and the benchmark tools start: svcd (SvcdProcess: how it is
        // launched and known to serve) and throwaway PostgreSQL clusters (PostgresDevServer, by
        // Deploy/postgres-dev.sh).
        .target(name: "ServerProcesses", dependencies: ["ChildProcess", "WireContract"]),
        // The one load generator of the repository, a client of the contract like any other:
        // DEALER clients on dedicated threads that keep requests in flight as fast as replies
        // come (svcbench, storebench) or paced on a schedule (svcctl stress), the fast reply
        // check, latency recording, per-use-case tallies, failover across a cluster's instances,
        // and the stress run itself (workload, ledger, resolution of unknown outcomes,
        // invariant checks). Its callers keep only their command lines and reports.
        .target(name: "LoadEngine", dependencies: [
            "BenchmarkSupport", "SeededRandom", "ZeroMQ", "WireJSON", "WireContract",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        // The operators' admin client: talks to svcd's CURVE-secured admin endpoint. Its
        // `stress` command is LoadEngine's stress run with svcctl's arguments, progress line and
        // report; it reads cluster files (`stress --cluster`) with RestaurantClient's ClusterFile.
        .executableTarget(name: "svcctl", dependencies: [
            "LoadEngine", "ZeroMQ", "WireJSON", "WireContract", "RestaurantClient",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        // Benchmark: the service against a raw libzmq echo, side by side (not a test), both
        // loaded by LoadEngine's pipelined client; and fixed amounts of work (the wire path,
        // one use case on a prepared SQLite store) whose instructions the budget tests count.
        .executableTarget(name: "svcbench", dependencies: [
            "BenchmarkSupport", "ChildProcess", "ServerProcesses", "LoadEngine", "ServiceApp", "Persistence", "Domain", "ZeroMQ", "WireJSON", "WireContract",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Benchmarks of the durable store: writes vs the raw SQLite ceiling, start-up on a large
        // store, a PostgreSQL cluster; the service's load comes from LoadEngine's pipelined client.
        .executableTarget(name: "storebench", dependencies: [
            "BenchmarkSupport", "ChildProcess", "ServerProcesses", "LoadEngine", "ServiceApp", "Persistence", "Domain", "Transport", "ZeroMQ", "WireJSON", "WireContract",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The tests' one World (repositories, deterministic ports and every use case, over a new
        // in-memory store or over any store's repositories, events encoded as the wire has them)
        // and the test doubles of Domain's ports (a clock the test moves by hand). Shared by the
        // Domain, Persistence and Transport tests.
        .target(name: "RestaurantTesting", dependencies: ["Domain", "Persistence", "Transport"], path: "Tests/RestaurantTesting"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "Persistence", "RestaurantTesting", "WireContract"]),
        .testTarget(name: "PersistenceTests", dependencies: [
            "Domain", "Persistence", "RestaurantTesting", "SvcdTestSupport", "SeededRandom",
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"]),
        .testTarget(name: "LoadEngineTests", dependencies: ["LoadEngine", "ZeroMQ", "WireJSON", "WireContract"]),
        .testTarget(name: "WireJSONTests", dependencies: ["WireJSON", "SeededRandom", "RestaurantTesting"], resources: [.copy("JSONTestSuite")]),
        // Client helpers shared by the socket-level test targets.
        .target(name: "WireTestSupport", dependencies: ["ZeroMQ", "WireJSON", "WireContract", "LoadEngine"], path: "Tests/WireTestSupport"),
        .testTarget(name: "TransportTests", dependencies: [
            "Transport", "ServiceApp", "Domain", "Persistence", "ZeroMQ", "WireJSON", "WireContract", "WireTestSupport", "SvcdTestSupport",
            "SeededRandom", "RestaurantTesting", "Telemetry", .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ]),
        // Launching a real svcd child process (and other tools) from tests.
        .target(name: "SvcdTestSupport", dependencies: ["ChildProcess", "ServerProcesses", "WireJSON", "WireContract", "WireTestSupport", "RestaurantClient"], path: "Tests/SvcdTestSupport"),
        .testTarget(name: "IntegrationTests", dependencies: [
            "ZeroMQ", "WireJSON", "WireContract", "WireTestSupport", "SvcdTestSupport", "ServerProcesses", "Persistence", "RestaurantClient", "SeededRandom",
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        // The contract's guarantees under load and faults, against real svcd processes.
        .testTarget(name: "StressTests", dependencies: [
            "ChildProcess", "ZeroMQ", "WireJSON", "WireContract", "WireTestSupport", "SvcdTestSupport", "SeededRandom", "RestaurantClient",
        ]),
    ]
)

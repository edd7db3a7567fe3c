import Domain
import Foundation
import Logging
import Metrics
import Persistence
import ServiceLifecycle
import Synchronization
import Telemetry
import Transport
import WireContract
import ZeroMQ

/// The composition root: the one function that knows every concrete type. It builds the
/// repositories, ports and use cases, seeds sample data if asked, binds one endpoint per use
/// case in the contract's order, the live event stream and the event log, the monitoring HTTP
/// listener if ``ServiceConfiguration/httpPort`` is set, writes `endpoints.json` and returns the
/// service ready to run. `svcd` and the integration tests both call it.
///
/// Every metric is recorded in `metrics` (by default a registry of this service's own, so
/// services built side by side in one process do not mix their counts). Requests are traced
/// with `tracing` when given (a test's in-memory tracer), else with the OTLP exporter of
/// ``ServiceConfiguration/tracing`` when that is set, else not at all.
public func buildService(
    configuration: ServiceConfiguration, logger: Logger = Logger(label: "svcd"), logLevel: LogLevelControl? = nil,
    metrics: ServiceMetrics = ServiceMetrics(), tracing given: RequestTracing? = nil
) async throws -> RestaurantService {
    let startedAt = ContinuousClock.now
    // Before anything is opened: a configuration it refuses stops start-up with nothing to undo.
    var tracing = given
    var spanExport: (any Service)?
    if given == nil, let tracingConfiguration = configuration.tracing {
        // Floored: swift-otel sets its logger's level, which must not become the process's.
        var tracingLogger = logger.floored(at: .warning)
        tracingLogger[metadataKey: "exporter"] = "otlp"
        let instance = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        (tracing, spanExport) = try OTLPSpanExport.make(tracingConfiguration, instance: instance, logger: tracingLogger)
    }
    try DataDirectory.prepare(configuration.dataDirectory)
    // Held until the service has stopped: a second svcd on this directory stops here.
    let lock = try DataDirectoryLock(dataDirectory: configuration.dataDirectory)

    let clock = SystemWallClock()
    let (store, repositories) = try await openStore(configuration, clock: clock, metrics: metrics, logger: logger)
    let catalog: UseCaseCatalog
    do {
        if configuration.seedSample {
            try await seedSample(into: repositories, of: store, taxRate: configuration.taxRate, logger: logger)
        }
        catalog = UseCaseCatalog(
            users: repositories.users, restaurants: repositories.restaurants, favorites: repositories.favorites,
            menu: repositories.menu, orders: repositories.orders, idempotency: repositories.idempotency, events: repositories.events,
            clock: clock, ids: TimeOrderedIdentifierGenerator(clock: clock), taxRate: FixedTaxRate(configuration.taxRate)
        )
    } catch {
        try? await store.close()
        throw error
    }

    var endpointConfiguration = configuration.endpoint
    let keys = try AdminKeys.loadOrCreate(in: configuration.dataDirectory)
    var useCaseServerKey: String?
    var authenticator: ZAPAuthenticator?
    var securityLogger = logger
    securityLogger[metadataKey: "endpoint"] = "use cases"
    let callers = CallerDirectory(path: configuration.clientKeysPath, logger: securityLogger)
    if configuration.clientKeysPath != nil {
        let pair = try keys.useCaseServer()
        endpointConfiguration.curveServerSecretKey = pair.secretKey
        useCaseServerKey = pair.publicKey
        authenticator = ZAPAuthenticator(callers: callers, guarding: "a use-case endpoint", logger: securityLogger, metrics: metrics.factory)
    } else {
        // Registered at 0: nothing is refused on plaintext endpoints, and the series exists.
        _ = Counter(label: ZAPAuthenticator.refusalMetric, factory: metrics.factory)
    }
    let context = try ZMQContext()
    let availability = ServiceAvailability()
    let late = LateBoundParts()
    var endpoints: [UseCaseEndpoint] = []
    var addresses: [UseCaseName: String] = [:]
    let admin: AdminEndpoint
    var monitoring: MonitoringHTTPListener?
    var eventStream: EventStreamEndpoint?
    var eventLog: EventLogEndpoint?
    do {
        // The handler first: a CURVE endpoint bound without one would admit any client key.
        try await authenticator?.start(in: context, watching: UseCaseName.allCases.map(\.rawValue) + [WireEvent.logName])
        // First, so a port in use stops start-up before any socket thread exists. Nothing is
        // answered before the group runs it, by when every endpoint is bound.
        if let httpPort = configuration.httpPort {
            var monitoringLogger = logger
            monitoringLogger[metadataKey: "endpoint"] = "http"
            monitoring = try await MonitoringHTTPListener.bind(
                host: configuration.host, port: httpPort,
                routes: MonitoringRoutes(metrics: metrics, availability: availability, store: store), logger: monitoringLogger
            )
        }
        for route in UseCaseRoute.all(catalog) {
            var endpointLogger = logger
            endpointLogger[metadataKey: "useCase"] = "\(route.name.rawValue)"
            let endpoint = try UseCaseEndpoint(
                route: route, address: configuration.address(offset: route.name.portOffset), context: context,
                configuration: endpointConfiguration, availability: availability, logger: endpointLogger,
                metrics: metrics.factory, readExecutor: store.readExecutor, callers: callers, tracing: tracing
            )
            addresses[route.name] = try await EndpointBindFailure.naming(route.name.rawValue, configuration.address(offset: route.name.portOffset)) {
                try await endpoint.start()
            }
            endpoints.append(endpoint)
        }
        var streamLogger = logger
        streamLogger[metadataKey: "endpoint"] = "\(WireEvent.streamName)"
        var streamConfiguration = endpointConfiguration
        streamConfiguration.sendHighWaterMark = Int32(clamping: configuration.eventSubscriberBuffer)
        let stream = try EventStreamEndpoint(
            events: repositories.events, lastWritten: { [store] in store.lastEventSeq }, address: configuration.address(offset: WireEvent.streamPortOffset),
            context: context, configuration: streamConfiguration, clock: clock, logger: streamLogger, metrics: metrics.factory
        )
        eventStream = stream
        let streamAddress = try await EndpointBindFailure.naming(WireEvent.streamName, configuration.address(offset: WireEvent.streamPortOffset)) {
            try await stream.start()
        }
        var logEndpointLogger = logger
        logEndpointLogger[metadataKey: "endpoint"] = "\(WireEvent.logName)"
        let log = try EventLogEndpoint(
            readEventLog: catalog.readEventLog, address: configuration.address(offset: WireEvent.logPortOffset), context: context,
            configuration: endpointConfiguration, logger: logEndpointLogger, metrics: metrics.factory, callers: callers
        )
        eventLog = log
        let logAddress = try await EndpointBindFailure.naming(WireEvent.logName, configuration.address(offset: WireEvent.logPortOffset)) {
            try await log.start()
        }
        let operations = AdminOperations(
            availability: availability, useCaseEndpoints: endpoints, useCaseAddresses: addresses, eventStream: stream,
            eventStreamAddress: streamAddress, eventLog: log, eventLogAddress: logAddress, store: store,
            logLevel: logLevel, late: late, startedAt: startedAt, taxRate: configuration.taxRate, metrics: metrics,
            authenticator: authenticator, callers: callers, logger: logger
        )
        var adminLogger = logger
        adminLogger[metadataKey: "endpoint"] = "\(AdminEndpoint.name)"
        admin = try AdminEndpoint(
            address: configuration.address(offset: PortLayout.adminOffset), serverSecretKey: keys.server.secretKey,
            authorizedKeysPath: keys.authorizedKeysFile,
            handler: { request in try await operations.handle(request) },
            logger: adminLogger
        )
        let boundAdmin = try await EndpointBindFailure.naming(AdminEndpoint.name, configuration.address(offset: PortLayout.adminOffset)) { try await admin.start() }
        late.setAdminAddress(boundAdmin)
        let file = EndpointsFile(
            pid: ProcessInfo.processInfo.processIdentifier, admin: boundAdmin, adminServerKey: keys.server.publicKey,
            adminClientPublicKeyFile: keys.clientPublicKeyFile, adminClientSecretKeyFile: keys.clientSecretKeyFile,
            useCaseServerKey: useCaseServerKey, http: monitoring.map { "http://\($0.boundAddress)" }, events: streamAddress,
            eventLog: logAddress, useCases: addresses
        )
        do {
            try file.write(to: configuration.dataDirectory)
        } catch {
            throw DataDirectoryFileError(path: EndpointsFile.path(in: configuration.dataDirectory), reason: "\(error)")
        }
    } catch {
        await monitoring?.close()
        for endpoint in endpoints { endpoint.abort() }
        eventStream?.abort()
        eventLog?.abort()
        context.terminate()
        try? await store.close()
        throw error
    }

    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            // Graceful shutdown goes in reverse order: the use cases drain first, the admin
            // endpoint (which may have asked for the shutdown) answers until the end, and a
            // PostgreSQL store's connection pool closes after that. The monitoring listener
            // stops just before the pool, so probes see /readyz turn 503 during the drain.
            // The span exporter stops last, after the use cases' last spans have ended.
            services: (spanExport.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? [])
                + store.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
                + (monitoring.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? []) + [
                ServiceGroupConfiguration.ServiceConfiguration(service: admin),
                // After the use cases have stopped, the stream publishes what they committed.
                ServiceGroupConfiguration.ServiceConfiguration(service: eventLog!),
                ServiceGroupConfiguration.ServiceConfiguration(service: eventStream!),
                ServiceGroupConfiguration.ServiceConfiguration(service: IdempotencyKeyPruner(
                    bindings: repositories.idempotency, clock: clock, interval: .seconds(3600), logger: logger
                )),
                ServiceGroupConfiguration.ServiceConfiguration(service: EventLogPruner(
                    events: repositories.events, clock: clock, retention: .seconds(configuration.eventRetentionHours * 3600),
                    interval: .seconds(600), logger: logger
                )),
                // Last, so it stops first; its endpoints drain side by side.
                ServiceGroupConfiguration.ServiceConfiguration(service: UseCaseEndpointGroup(endpoints)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
    )
    late.attach(group)
    var readyMetadata: Logger.Metadata = ["useCases": "\(endpoints.count)", "dataDirectory": "\(configuration.dataDirectory)"]
    if let monitoring { readyMetadata["http"] = "\(monitoring.boundAddress)" }
    if let tracingConfiguration = configuration.tracing { readyMetadata["otlp"] = "\(tracingConfiguration.tracesURL)" }
    logger.info("svcd ready", metadata: readyMetadata)
    return RestaurantService(
        useCaseAddresses: addresses, eventStream: eventStream!, endpoints: endpoints, availability: availability, dataDirectory: configuration.dataDirectory, store: store,
        context: context, group: group, lock: lock
    )
}

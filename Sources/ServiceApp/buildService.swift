import Domain
import Foundation
import Logging
import Persistence
import ServiceLifecycle
import Synchronization
import Transport
import ZeroMQ

/// The composition root: the one function that knows every concrete type. It builds the
/// repositories, ports and use cases, seeds sample data if asked, binds one endpoint per use
/// case in the contract's order, writes `endpoints.json` and returns the service ready to run.
/// `svcd` and the integration tests both call it.
public func buildService(
    configuration: ServiceConfiguration, logger: Logger = Logger(label: "svcd"), logLevel: LogLevelControl? = nil
) async throws -> RestaurantService {
    let startedAt = ContinuousClock.now
    try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)

    let store: SQLiteStore?
    let users: any UserRepository
    let restaurants: any RestaurantRepository
    let favorites: any FavoriteRepository
    let menu: any MenuRepository & OrderRepository
    let idempotency: any IdempotencyRepository
    switch configuration.store {
    case .sqlite:
        let opened = ContinuousClock.now
        let sqlite = try SQLiteStore(path: configuration.storePath)
        store = sqlite
        users = try await SQLiteUserRepository(store: sqlite)
        let sqliteRestaurants = try await SQLiteRestaurantRepository(store: sqlite)
        restaurants = sqliteRestaurants
        favorites = SQLiteFavoriteRepository(store: sqlite)
        menu = SQLiteMenuRepository(store: sqlite)
        idempotency = SQLiteIdempotencyRepository(store: sqlite)
        let heldRestaurants = await sqliteRestaurants.count
        logger.info("opened store", metadata: [
            "path": "\(configuration.storePath)", "restaurants": "\(heldRestaurants)",
            "elapsed": "\(ContinuousClock.now - opened)",
        ])
    case .memory:
        store = nil
        let memory = InMemoryStore()
        users = memory.users
        restaurants = memory.restaurants
        favorites = memory.favorites
        menu = memory.menu
        idempotency = memory.idempotency
    }

    if configuration.seedSample {
        let seeded = try await SampleData.seedIfEmpty(users: users, restaurants: restaurants, favorites: favorites, menu: menu, orders: menu, taxRate: configuration.taxRate)
        if let seeded { logger.info("seeded sample data", metadata: ["summary": "\(seeded)"]) }
    }

    let clock = SystemWallClock()
    let catalog = UseCaseCatalog(
        users: users, restaurants: restaurants, favorites: favorites, menu: menu, orders: menu, idempotency: idempotency,
        clock: clock, ids: RandomIdentifierGenerator(), taxRate: FixedTaxRate(configuration.taxRate)
    )

    let keys = try AdminKeys.loadOrCreate(in: configuration.dataDirectory)
    let context = try ZMQContext()
    let availability = ServiceAvailability()
    let late = LateBoundParts()
    var endpoints: [UseCaseEndpoint] = []
    var addresses: [UseCaseName: String] = [:]
    let admin: AdminEndpoint
    do {
        for route in UseCaseRoute.all(catalog) {
            var endpointLogger = logger
            endpointLogger[metadataKey: "useCase"] = "\(route.name.rawValue)"
            let endpoint = try UseCaseEndpoint(
                route: route, address: configuration.address(offset: route.name.portOffset), context: context,
                configuration: configuration.endpoint, availability: availability, logger: endpointLogger
            )
            addresses[route.name] = try await endpoint.start()
            endpoints.append(endpoint)
        }
        let operations = AdminOperations(
            availability: availability, endpoints: endpoints, useCaseAddresses: addresses, store: store,
            logLevel: logLevel, late: late, startedAt: startedAt, taxRate: configuration.taxRate, logger: logger
        )
        var adminLogger = logger
        adminLogger[metadataKey: "endpoint"] = "admin"
        admin = try AdminEndpoint(
            address: configuration.address(offset: 0), serverSecretKey: keys.server.secretKey,
            authorizedKeysPath: keys.authorizedKeysFile,
            handler: { request in try await operations.handle(request) },
            logger: adminLogger
        )
        let boundAdmin = try await admin.start()
        late.setAdminAddress(boundAdmin)
        let file = EndpointsFile(
            pid: ProcessInfo.processInfo.processIdentifier, admin: boundAdmin, adminServerKey: keys.server.publicKey,
            adminClientPublicKeyFile: keys.clientPublicKeyFile, adminClientSecretKeyFile: keys.clientSecretKeyFile,
            useCases: Dictionary(uniqueKeysWithValues: addresses.map { ($0.key.rawValue, $0.value) })
        )
        try file.write(to: configuration.dataDirectory)
    } catch {
        for endpoint in endpoints { endpoint.abort() }
        context.terminate()
        try? await store?.close()
        throw error
    }

    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            // Graceful shutdown goes in reverse order: the use cases drain first, the admin
            // endpoint (which may have asked for the shutdown) answers until the end.
            services: [
                ServiceGroupConfiguration.ServiceConfiguration(service: admin),
                ServiceGroupConfiguration.ServiceConfiguration(service: IdempotencyKeyPruner(
                    bindings: idempotency, clock: clock, interval: .seconds(3600), logger: logger
                )),
            ] + endpoints.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
    )
    late.attach(group)
    logger.info("svcd ready", metadata: ["useCases": "\(endpoints.count)", "dataDirectory": "\(configuration.dataDirectory)"])
    return RestaurantService(useCaseAddresses: addresses, endpoints: endpoints, availability: availability, dataDirectory: configuration.dataDirectory, store: store, context: context, group: group)
}

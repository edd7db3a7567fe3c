import Domain
import Foundation
import Logging
import Persistence
import ServiceLifecycle
import Synchronization
import Transport
import WireContract
import WireJSON

/// The admin operations of the contract, over the running service's parts. Every operation
/// answers from state that is readable at once (atomics, locks), so the admin endpoint answers
/// even when every use case is saturated; only `backup`, `health` and `status` (whether the store
/// answers) touch the store.
struct AdminOperations: Sendable {
    let availability: ServiceAvailability
    let endpoints: [UseCaseEndpoint]
    let useCaseAddresses: [UseCaseName: String]
    let store: ServiceStore
    let logLevel: LogLevelControl?
    let late: LateBoundParts
    let startedAt: ContinuousClock.Instant
    /// The rate new orders are taxed at, reported by `status` so clients can check order totals.
    let taxRate: TaxRate
    /// Served as Prometheus text by `stats` with format `prometheus`.
    let metrics: ServiceMetrics
    /// The use-case endpoints' ZAP handler when they are CURVE servers: `stats` reports its refusals.
    let authenticator: ZAPAuthenticator?
    let logger: Logger

    /// The service's version, as `status` reports it.
    static let version = "1.0.0"

    func handle(_ request: AdminRequest) async throws -> JSONValue {
        switch request.op {
        case .status:
            return object([
                ("state", .string(availability.isRefusingRequests ? "draining" : "running")),
                ("version", .string(Self.version)),
                ("pid", .int(Int(ProcessInfo.processInfo.processIdentifier))),
                ("uptimeSeconds", .int(Int((ContinuousClock.now - startedAt).components.seconds))),
                ("taxRate", .string(taxRate.decimalText)),
                ("store", object([("kind", .string(store.kind.rawValue)), ("reachable", .bool(await storeAnswers()))])),
            ])
        case .endpoints:
            return object([(EndpointsFile.Key.admin, .string(late.adminAddress)), (EndpointsFile.Key.useCases, useCasesObject())])
        case .stats:
            return try statistics(format: request.params["format"])
        case .health:
            return try await health()
        case .drain:
            availability.drain()
            logger.notice("draining: use cases answer unavailable until resumed")
            return object([("state", .string(availability.isRefusingRequests ? "draining" : "running"))])
        case .resume:
            availability.resume()
            logger.notice("resumed")
            return object([("state", .string(availability.isRefusingRequests ? "draining" : "running"))])
        case .shutdown:
            logger.notice("shutdown requested through the admin endpoint")
            // After the reply is queued: the admin endpoint is shut down last, so it goes out.
            let late = self.late
            Task { await late.triggerShutdown() }
            return object([("state", "stopping")])
        case .backup:
            return try await backup(path: request.params["path"])
        case .setLogLevel:
            guard let logLevel else { throw WireError(.unavailable, "this service's log level is fixed") }
            guard let name = request.params["level"]?.stringValue, let level = Logger.Level(rawValue: name) else {
                throw WireError(.invalidInput, "level must be one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            logLevel.level = level
            logger.notice("log level set", metadata: ["level": "\(level)"])
            return object([("level", .string(level.rawValue))])
        }
    }

    private func useCasesObject() -> JSONValue {
        object(UseCaseName.allCases.compactMap { name in useCaseAddresses[name].map { (name.rawValue, JSONValue.string($0)) } })
    }

    private func health() async throws -> JSONValue {
        var checks: [(String, JSONValue)] = []
        var healthy = true
        do {
            try await store.ping()
            checks.append(("store", .string(store.kind == .memory ? "in memory" : "ok")))
        } catch {
            healthy = false
            checks.append(("store", .string("failed: \(error)")))
        }
        checks.append(("useCaseEndpoints", .int(endpoints.count)))
        checks.append(("accepting", .bool(!availability.isRefusingRequests)))
        return object([("healthy", .bool(healthy)), ("checks", object(checks))])
    }

    /// Whether the store answers a trivial read now.
    private func storeAnswers() async -> Bool {
        do {
            try await store.ping()
            return true
        } catch {
            return false
        }
    }

    private func backup(path: JSONValue?) async throws -> JSONValue {
        if store.kind != .sqlite {
            do {
                try await store.backup(to: "")
            } catch let unavailable as BackupUnavailable {
                throw WireError(.unavailable, unavailable.reason)
            }
        }
        guard let path = path?.stringValue, path.hasPrefix("/") else {
            throw WireError(.invalidInput, "path must be an absolute file path")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw WireError(.invalidInput, "path \(path) exists already; backups never overwrite")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WireError(.invalidInput, "directory \(directory) does not exist")
        }
        do {
            try await store.backup(to: path)
        } catch {
            // The operator needs the cause (a read-only or special file system, no space, no
            // permission), not only svcd's log.
            logger.error("backup failed", metadata: ["path": "\(path)", "error": "\(error)"])
            throw WireError(.internal, "cannot write the backup to \(path): \(error)")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        logger.notice("backup written", metadata: ["path": "\(path)", "bytes": "\(bytes)"])
        return object([("path", .string(path)), ("bytes", .int(bytes))])
    }

    private func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }
}

/// What exists only after the admin endpoint is built: its bound address and the service group
/// whose graceful shutdown the `shutdown` op starts.
final class LateBoundParts: Sendable {
    private let state = Mutex<(address: String, group: ServiceGroup?)>(("", nil))

    /// The admin endpoint's bound address.
    var adminAddress: String { state.withLock { $0.address } }

    func setAdminAddress(_ address: String) {
        state.withLock { $0.address = address }
    }

    func attach(_ group: ServiceGroup) {
        state.withLock { $0.group = group }
    }

    func triggerShutdown() async {
        guard let group = state.withLock({ $0.group }) else { return }
        await group.triggerGracefulShutdown()
    }
}

import Foundation
import WireContract
import WireJSON

extension AdminOperations {
    /// `status`: the service's state, version, pid, uptime, the tax rate of new orders, and the
    /// store's kind and whether it answers a trivial read now.
    func status() async -> JSONValue {
        typealias Key = AdminOperation.Result
        return object([
            (Key.state, .string(serviceState.rawValue)),
            (Key.version, .string(Self.version)),
            (EndpointsFile.Key.pid, .int(Int(ProcessInfo.processInfo.processIdentifier))),
            (Key.uptimeSeconds, .int(Int((ContinuousClock.now - startedAt).components.seconds))),
            (Key.taxRate, .string(taxRate.decimalText)),
            (Key.store, object([(Key.kind, .string(store.kind.rawValue)), (Key.reachable, .bool(await storeAnswers()))])),
        ])
    }

    /// The service's version, as `status` reports it.
    static let version = "1.0.0"

    /// Whether the store answers a trivial read now.
    private func storeAnswers() async -> Bool {
        do {
            try await store.ping()
            return true
        } catch {
            return false
        }
    }
}

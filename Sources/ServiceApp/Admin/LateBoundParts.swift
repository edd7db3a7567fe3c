import ServiceLifecycle
import Synchronization

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

import PostgresNIO
import Synchronization

/// Tells the operations running on a pooled connection, at once, that the connection closed.
///
/// They cannot count on their query failing: postgres-nio (1.33) hands a query to the channel
/// without a write promise, so a query sent just after the server closed the connection (a
/// database shutting down terminates every session) is dropped silently and its result never
/// comes. Without this, such a request waited for the run limit (over 10 s) instead of being
/// answered within the connection wait.
///
/// One callback per connection on its close future (a connection's future outlives many
/// operations, and callbacks on it cannot be removed); operations register and unregister
/// handlers here, which the callback runs when the connection closes.
final class ConnectionLossWatch: Sendable {
    /// An operation's handler, to unregister when it is done with the connection.
    struct Registration: Sendable {
        fileprivate let connection: PostgresConnection.ID
        fileprivate let number: UInt64
    }

    private struct State {
        /// Connections whose close future has this watch's callback (removed once closed).
        var watched: Set<PostgresConnection.ID> = []
        /// Per connection, the handlers of the operations running on it.
        var handlers: [PostgresConnection.ID: [UInt64: @Sendable () -> Void]] = [:]
        var lastNumber: UInt64 = 0
        /// Handlers registered and not yet ended or run.
        var registered = 0
    }

    private let state = Mutex(State())

    /// Runs `onLoss` when `connection` closes before the registration is ended with
    /// ``unregister(_:)``; at once (on the connection's event loop) if it is closed already.
    func register(_ connection: PostgresConnection, onLoss: @escaping @Sendable () -> Void) -> Registration {
        let id = connection.id
        let (registration, isNew) = state.withLock { state in
            state.lastNumber += 1
            state.handlers[id, default: [:]][state.lastNumber] = onLoss
            state.registered += 1
            return (Registration(connection: id, number: state.lastNumber), state.watched.insert(id).inserted)
        }
        if isNew {
            connection.closeFuture.whenComplete { [self] _ in closed(id) }
        }
        return registration
    }

    /// Operations holding a connection now (registered and not yet ended).
    var operationsRunning: Int {
        state.withLock { $0.registered }
    }

    /// Ends a registration: its handler will not run.
    func unregister(_ registration: Registration) {
        state.withLock { state in
            if state.handlers[registration.connection]?.removeValue(forKey: registration.number) != nil { state.registered -= 1 }
        }
    }

    private func closed(_ id: PostgresConnection.ID) {
        let handlers = state.withLock { state in
            state.watched.remove(id)
            let handlers = state.handlers.removeValue(forKey: id).map { Array($0.values) } ?? []
            state.registered -= handlers.count
            return handlers
        }
        for handler in handlers { handler() }
    }
}

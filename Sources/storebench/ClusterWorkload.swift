import Foundation

/// What a service run sends: durable writes of one or several statements, or a read.
enum ClusterWorkload: String, CaseIterable, Sendable {
    /// RegisterUser: one autocommit `INSERT … ON CONFLICT DO NOTHING RETURNING` (no idempotency key).
    case register
    /// PlaceOrder: two reads (user, items), then a transaction with `SELECT … FOR UPDATE`, an
    /// `UPDATE` of the stock and two `INSERT`s.
    case order
    /// GetRestaurant: one `SELECT` (PostgreSQL keeps no copy in svcd).
    case read

    /// The use case's name, as endpoints.json has it.
    var useCase: String {
        switch self {
        case .register: "RegisterUser"
        case .order: "PlaceOrder"
        case .read: "GetRestaurant"
        }
    }

    /// What one request makes.
    var unit: String {
        switch self {
        case .register: "users"
        case .order: "orders"
        case .read: "reads"
        }
    }
}

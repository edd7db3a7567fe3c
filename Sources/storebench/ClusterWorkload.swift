import Foundation
import WireContract

/// What a service run sends: durable writes of one or several statements, or a read.
enum ClusterWorkload: String, CaseIterable, Sendable {
    /// RegisterUser: one autocommit `INSERT … ON CONFLICT DO NOTHING RETURNING` (no idempotency key).
    case register
    /// PlaceOrder: two reads (user, items), then a transaction with `SELECT … FOR UPDATE`, an
    /// `UPDATE` of the stock and two `INSERT`s.
    case order
    /// GetRestaurant: one `SELECT` (PostgreSQL keeps no copy in svcd).
    case read

    /// The use case.
    var useCase: UseCaseName {
        switch self {
        case .register: .registerUser
        case .order: .placeOrder
        case .read: .getRestaurant
        }
    }

    /// The pgbench script this workload is measured against.
    var pgbenchReference: PgbenchScript {
        switch self {
        case .register: .insert
        case .read: .selectOnly
        case .order: .tpcbLike
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

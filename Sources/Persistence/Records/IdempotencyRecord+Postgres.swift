import Domain
import Foundation
import PostgresNIO

extension IdempotencyRecord {
    /// The binding of a PostgreSQL row of `request, result`.
    static func binding(from row: PostgresRow) throws -> IdempotencyBinding {
        let (request, result) = try row.decode((String, Data).self)
        return IdempotencyBinding(request: request, recordedResult: Array(result))
    }
}

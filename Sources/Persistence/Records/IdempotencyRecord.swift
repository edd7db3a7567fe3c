import Domain
import Foundation
import GRDB

/// The `idempotency_keys` row of an ``IdempotencyBinding``, both ways.
enum IdempotencyRecord {
    static let columns = "key, request, result, made_at"

    static func binding(from row: Row) throws -> IdempotencyBinding {
        let result: [UInt8] = Array(try row.decode(forColumn: "result") as Data)
        return IdempotencyBinding(request: try row.decode(forColumn: "request"), recordedResult: result)
    }

    static func arguments(key: String, _ binding: IdempotencyBinding, madeAt: Timestamp) -> StatementArguments {
        [key, binding.request, Data(binding.recordedResult), madeAt.millisecondsSinceEpoch]
    }
}

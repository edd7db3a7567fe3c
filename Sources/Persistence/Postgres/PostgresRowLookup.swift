import PostgresNIO

/// Reads of rows by id, gathered: a read arriving while ``PostgresStore/Configuration/readBatches``
/// statements of its kind run waits for one of them and goes with the others then waiting in one
/// `WHERE id = ANY($1)` statement (``StatementBatcher``). A lone read of one id goes at once as
/// the one-row statement, so an idle store adds no latency; under load the pool's lease, the
/// round trip and the server's execution are paid once per statement instead of once per read,
/// which is most of svcd's and the server's CPU per read.
///
/// Each read is answered from the rows of the statement that carried it, taken in one snapshot
/// after the read arrived, so it sees every write committed before it was asked. A row its
/// mapper cannot map fails only the reads that asked for its id.
struct PostgresRowLookup<Record: PostgresRecord, Entity: Sendable>: Sendable {
    private let batcher: StatementBatcher<[String], Result<[Entity?], any Error>>

    /// Reads of `Record`'s rows by id: `one` selects the row whose id is `$1`, `many` the rows
    /// whose id is in the array `$1`; `id` is a record's id and `entity` maps a record.
    init<One: PreparedSQL, Many: PreparedSQL>(
        store: PostgresStore, one: One.Type, many: Many.Type,
        id: @escaping @Sendable (Record) -> String, entity: @escaping @Sendable (Record) throws -> Entity
    ) {
        batcher = StatementBatcher(maximumBatches: store.configuration.readBatches, maximumItems: store.configuration.readBatchRows) { reads in
            // One read's ids go as they are (an id twice is harmless in `ANY`); several reads' once each.
            let ids = reads.count == 1 ? reads[0] : Array(Set(reads.joined()))
            let records: [Record]
            switch ids.count {
            case 0:
                records = []
            case 1:
                let found = try await store.read { connection, logger in
                    try await connection.rows(One.self, logger, binding: { $0.append(ids[0]) }) { try Record($0) }
                }.first
                guard reads.count > 1 else { return [Result { [try found.map(entity)] }] }
                records = found.map { [$0] } ?? []
            default:
                records = try await store.read { connection, logger in
                    try await connection.rows(Many.self, logger, binding: { $0.append(ids) }) { try Record($0) }
                }
            }
            var byId: [String: Record] = .init(minimumCapacity: records.count)
            for record in records { byId[id(record)] = record }
            return reads.map { wanted in Result { try wanted.map { try byId[$0].map(entity) } } }
        }
    }

    /// Reads waiting for a statement now (for tests).
    var waitingCount: Int {
        batcher.waitingCount
    }

    /// The entity whose id is `id`, or `nil` when there is none.
    func callAsFunction(_ id: String) async throws -> Entity? {
        try await batcher.submit([id]).get()[0]
    }

    /// The entity of each of `ids`, in their order: `nil` for an id that has none.
    func callAsFunction(_ ids: [String]) async throws -> [Entity?] {
        try await batcher.submit(ids).get()
    }
}

/// The names of the attributes svcd sets on its spans, spelled once: the contract's (`svc.…`)
/// and OpenTelemetry's semantic conventions for RPC.
public enum SpanAttributeName {
    /// The caller's name (`--client-keys`), `anonymous` without keys.
    public static let caller = "svc.caller"
    /// The reply's code: ``ok`` or the error code.
    public static let replyCode = "svc.reply.code"
    /// The value of ``replyCode`` for a success.
    public static let ok = "ok"
    /// The svcd instance that served the request.
    public static let instance = "svc.instance"
    /// Whether an idempotency key's recorded result answered the request.
    public static let idempotencyReplay = "svc.idempotency.replay"
    /// OpenTelemetry's `rpc.system`.
    public static let rpcSystem = "rpc.system"
    /// OpenTelemetry's `rpc.service`.
    public static let rpcService = "rpc.service"
    /// OpenTelemetry's `rpc.method`: the use case.
    public static let rpcMethod = "rpc.method"
}

extension SpanAttributeName {
    /// The number of writes that shared the SQLite commit (on `sqlite.commit`).
    public static let batchSize = "svc.store.batch_size"
}

/// The names of the store's spans (``StoreSpan``) and their `db.system.name`, spelled once.
public enum StoreSpanName {
    /// SQLite: a write, from its submission to its durable commit (its wait for the batch
    /// included).
    public static let sqliteWrite = "sqlite.write"
    /// SQLite: the commit of the write's batch, `BEGIN` to the end of `COMMIT` (the fsync).
    public static let sqliteCommit = "sqlite.commit"
    /// SQLite: a read.
    public static let sqliteRead = "sqlite.read"
    /// `db.system.name` of SQLite.
    public static let sqlite = "sqlite"
    /// PostgreSQL: a read on a pooled connection.
    public static let postgresRead = "postgres.read"
    /// PostgreSQL: a write's transaction (an attempt of it), `BEGIN` to `COMMIT`.
    public static let postgresTransaction = "postgres.transaction"
    /// PostgreSQL: one statement (`db.operation.name`: the prepared statement's name).
    public static let postgresStatement = "postgres.statement"
    /// `db.system.name` of PostgreSQL.
    public static let postgresql = "postgresql"
}

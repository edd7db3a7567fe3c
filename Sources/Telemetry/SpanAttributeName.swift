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

/// One simulated client of a stress run: its own schedule, request choices, request numbers and
/// instance. Clients are logical: a load thread (``StressThread``) runs many of them over one set
/// of sockets, so the load generator's threads and sockets do not grow with the number of clients.
struct PacedClient {
    /// The client's place in the run (its schedule's phase, its ids and keys).
    let index: Int
    /// The instance it sends to now.
    var current: Int
    var workload: StressWorkload
    /// Sends scheduled so far (the next send's slot).
    var scheduled = 0
    /// The number of its last request (see ``requestId(client:number:)``).
    var sequence: UInt64 = 0
    /// Its requests waiting for replies.
    var outstanding = 0
    /// The last slot counted as sent late for want of replies (counted once).
    var lastDelayedSlot = -1
    /// The start of its idempotency keys.
    let keyPrefix: String

    init(index: Int, instance: Int, workload: StressWorkload, runKeyPrefix: String) {
        self.index = index
        current = instance
        self.workload = workload
        keyPrefix = "\(runKeyPrefix)-c\(index)-"
    }

    /// The id of request `number` of client `client`, unique in the run: the client in the high
    /// bits, the number in the low 40 (a year at a million requests a second). Sent in decimal,
    /// so a reply's id is read from its first bytes (``ReplyScan``) without parsing it.
    static func requestId(client: Int, number: UInt64) -> UInt64 {
        UInt64(client) << 40 | number
    }
}

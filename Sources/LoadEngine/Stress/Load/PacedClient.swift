/// One simulated client of a stress run: its own schedule, request choices, request numbers and
/// instance. Clients are logical: a load thread (``StressThread``) runs many of them over one set
/// of sockets, so the load generator's cost does not grow with the number of clients.
struct PacedClient {
    /// The client's place in the run (its schedule's phase, its ids and keys).
    let index: Int
    /// The instance it sends to now.
    var current: Int
    var workload: StressWorkload
    /// Sends scheduled so far (the next send's slot).
    var scheduled = 0
    /// The number of its last request (request ids are `c<index>-<number>`).
    var sequence: UInt64 = 0
    /// Its requests waiting for replies.
    var outstanding = 0
    /// The last slot counted as sent late for want of replies (counted once).
    var lastDelayedSlot = -1
    /// `c<index>-`: the start of its request ids.
    let idPrefix: String
    /// The start of its idempotency keys.
    let keyPrefix: String

    init(index: Int, instance: Int, workload: StressWorkload, runKeyPrefix: String) {
        self.index = index
        current = instance
        self.workload = workload
        idPrefix = "c\(index)-"
        keyPrefix = "\(runKeyPrefix)-c\(index)-"
    }

    /// The pending-table key of request `number` of client `client`: a request number stays far
    /// below 2⁴⁰ (a year at a million requests a second).
    static func pendingKey(client: Int, number: UInt64) -> UInt64 {
        UInt64(client) << 40 | number
    }

    /// The client index and request number of a reply's id, `c<index>-<number>`.
    static func parse(id: String) -> (client: Int, number: UInt64)? {
        var utf8 = Substring(id).utf8
        guard utf8.first == UInt8(ascii: "c") else { return nil }
        utf8 = utf8.dropFirst()
        guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")),
            let client = Int(Substring(utf8[..<dash])), let number = UInt64(Substring(utf8[utf8.index(after: dash)...])),
            client >= 0, client < 1 << 23, number < 1 << 40
        else { return nil }
        return (client, number)
    }
}

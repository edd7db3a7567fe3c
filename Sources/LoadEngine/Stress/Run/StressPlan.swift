import WireContract

/// Everything a stress run needs to know: where, how hard, how long and what to send.
public struct StressPlan: Sendable {
    /// The instances (one, or several sharing one store).
    public let cluster: LoadCluster
    /// How long to send, in nanoseconds.
    public let durationNanoseconds: UInt64
    /// Requests per second over all clients (open loop).
    public let rate: Double
    /// Concurrent clients, each with its own schedule, requests and instance.
    public let clients: Int
    /// Threads the clients are spread over (at most one per client); a thread's clients share
    /// its sockets.
    public let threads: Int
    /// Weights of the operation kinds.
    public let mix: StressMix
    /// Users the run registers.
    public let users: Int
    /// Requests one client may have waiting for replies; beyond it sends are delayed.
    public let maxOutstanding: Int
    /// Seed of the request choices.
    public let seed: UInt64
    /// How long a load request may go unanswered before its outcome counts as unknown, and the
    /// least time the set-up, the resolution and the checks wait for an answer.
    public let timeoutMilliseconds: Int
    /// The service's tax rate in parts per million, for the order totals.
    public let taxPartsPerMillion: Int
    /// Whether writes of unknown outcome are sent again with their keys after the load.
    public let resolve: Bool
    /// How often a load thread wakes to send what is due and read the replies that came, all
    /// together; 0: at each reply and each send (see ``defaultTickNanoseconds``).
    public let tickNanoseconds: UInt64
    /// How the load threads connect, when every instance can take it (see
    /// ``transport(forAddresses:)``).
    public let preferredTransport: StressTransport
    /// Random per run; part of every name and email the run creates.
    public let tag: String
    /// The start of every idempotency key of the run: keys never repeat, not even across runs.
    public let keyPrefix: String

    /// A plan; the run's tag and key prefix are drawn at random.
    public init(
        cluster: LoadCluster, durationNanoseconds: UInt64, rate: Double, clients: Int, threads: Int, mix: StressMix, users: Int, maxOutstanding: Int,
        seed: UInt64, timeoutMilliseconds: Int, taxPartsPerMillion: Int, resolve: Bool, tickNanoseconds: UInt64 = defaultTickNanoseconds,
        transport: StressTransport = .zmtp
    ) {
        self.cluster = cluster
        self.durationNanoseconds = durationNanoseconds
        self.rate = rate
        self.clients = clients
        self.threads = max(1, min(threads, clients))
        self.mix = mix
        self.users = users
        self.maxOutstanding = maxOutstanding
        self.seed = seed
        self.timeoutMilliseconds = timeoutMilliseconds
        self.taxPartsPerMillion = taxPartsPerMillion
        self.resolve = resolve
        self.tickNanoseconds = tickNanoseconds
        self.preferredTransport = transport
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        self.tag = tag
        // The tag alone is short.
        self.keyPrefix = "stress-\(tag)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }

    /// The requests a second one load thread is given by default: a thread sends and reads 8,000
    /// a second of the default mix on about 0.15 of a core (over ZMTP), and every further thread adds
    /// wake-ups of its own (`svcctl stress` CPU per request, Docs/BENCHMARKS.md).
    public static let ratePerThread = 8_000

    /// The load threads' default tick: 1 ms. Waking once per millisecond instead of once per
    /// reply and per send cut `svcctl stress`'s CPU per request by a third at 2,500–5,000/s
    /// (a wake-up costs more than the request's own work; Docs/BENCHMARKS.md); replies are timed
    /// when read, so latencies are up to a tick high, and sends leave up to a tick late (their
    /// latency, counted from the intended time, includes it).
    public static let defaultTickNanoseconds: UInt64 = 1_000_000

    /// The transport the load threads use with `addresses` (each instance's, by use case):
    /// ``StressTransport/zmtp`` when preferred, the threads tick, no instance needs CURVE and
    /// every address is a plain `tcp://HOST:PORT`; otherwise ``StressTransport/libzmq``.
    public func transport(forAddresses addresses: [[UseCaseName: String]?]) -> StressTransport {
        guard preferredTransport == .zmtp, tickNanoseconds > 0, cluster.instances.allSatisfy({ $0.credentials == nil }) else { return .libzmq }
        let all = addresses.compactMap { $0 }.flatMap(\.values)
        return all.allSatisfy { ZMTPAddress($0) != nil } ? .zmtp : .libzmq
    }

    /// Load threads for `rate` requests a second: one per ``ratePerThread``, at least one.
    public static func defaultThreads(rate: Double) -> Int {
        max(1, Int((rate / Double(ratePerThread)).rounded(.up)))
    }

    /// Clients assigned to instance `index` (client *i* to instance *i* mod *n*).
    public func clients(of index: Int) -> Int {
        (0..<clients).filter { $0 % cluster.instances.count == index }.count
    }
}

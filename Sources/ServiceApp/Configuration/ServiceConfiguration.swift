import Domain
import Persistence
import Transport
import WireContract

/// Everything `buildService(configuration:)` needs; every field has the contract's default.
/// Parsing flags and environment variables lives in `svcd`, not here.
public struct ServiceConfiguration: Sendable {
    /// Holds the store, the keys and `endpoints.json`; created if missing.
    public var dataDirectory: String = "./svc-data"
    /// Interface to bind.
    public var host: String = "127.0.0.1"
    /// The admin endpoint binds this port and the use cases the ports after it, in
    /// ``UseCaseName`` order. 0 binds every endpoint to an ephemeral port (see `endpoints.json`).
    public var portBase: Int = 7100
    /// Where the data lives.
    public var store: StoreKind = .sqlite
    /// Load the deterministic sample data set when the store is empty.
    public var seedSample: Bool = false
    /// Tax applied to new orders.
    public var taxRate: TaxRate = TaxRate(partsPerMillion: 80_000)!
    /// Per-endpoint limits and socket settings.
    public var endpoint = EndpointConfiguration()

    /// Requests each use-case endpoint accepts and has not yet answered; beyond it the reply is
    /// `overloaded` (``EndpointConfiguration/maxInFlight``).
    public var maxInFlight: Int {
        get { endpoint.maxInFlight }
        set { endpoint.maxInFlight = newValue }
    }

    /// The longest a request may wait for its turn before it runs, in the endpoint's queue or
    /// the store's (group commit, pooled connections); one that waited longer is answered
    /// `overloaded` with no effect (``EndpointConfiguration/queueTimeTarget``).
    public var queueTimeTarget: Duration {
        get { endpoint.queueTimeTarget }
        set { endpoint.queueTimeTarget = newValue }
    }

    /// The file of client public keys allowed on the use-case endpoints (``ClientKeyList``);
    /// with it every use-case endpoint is a CURVE server. `nil`: plaintext.
    public var clientKeysPath: String?

    /// The PostgreSQL database of ``StoreKind/postgres``.
    public var databaseURL: PostgresURL?
    /// Connections to PostgreSQL this instance keeps open at most.
    public var databaseConnections: Int = 32
    /// Adjusts the PostgreSQL store's settings after the service has set those it takes from
    /// the fields above (URL, connections, queue-time target): for an embedder that needs one
    /// svcd has no flag for, such as svcbench's counted runs, which pace the store's periodic
    /// work at an hour.
    public var adjustPostgresStore: @Sendable (inout PostgresStore.Configuration) -> Void = { _ in }
    /// How long events are kept in the event log at least, in hours (at least 1; default 168,
    /// seven days): older ones are pruned from the oldest end.
    public var eventRetentionHours: Int = 168
    /// Live-stream messages queued for one subscriber at most (its high-water mark); what does
    /// not fit is dropped for that subscriber alone, which reads it from the event log.
    public var eventSubscriberBuffer: Int = 10_000
    /// Whether writes append their events to the event log. Always on in svcd; off only to
    /// measure what the event log costs (a benchmark's comparison: the same build with events
    /// written nowhere), which breaks the contract.
    public var recordsEvents: Bool = true

    /// Span export over OTLP/HTTP; `nil` (the default): no spans are made.
    public var tracing: TracingConfiguration?

    /// The port of the monitoring HTTP listener (`/metrics`, `/healthz`, `/readyz`) on
    /// ``host``; `nil` (the default) runs none, 0 binds an ephemeral port.
    public var httpPort: Int?

    /// Where the service keeps its data.
    public enum StoreKind: String, Sendable, CaseIterable {
        /// `DATA_DIR/store.sqlite`: durable; the default.
        case sqlite
        /// A PostgreSQL database (``ServiceConfiguration/databaseURL``) that several instances
        /// may share: durable.
        case postgres
        /// Process memory: lost at exit. For tests and comparisons only.
        case memory
    }

    /// The SQLite database file inside the data directory.
    public var storePath: String { dataDirectory + "/store.sqlite" }

    /// The defaults of the contract.
    public init() {}

    /// The address an endpoint at `offset` from the port base binds.
    func address(offset: Int) -> String {
        portBase == 0 ? "tcp://\(host):*" : "tcp://\(host):\(portBase + offset)"
    }
}

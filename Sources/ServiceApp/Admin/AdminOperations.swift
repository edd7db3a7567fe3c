import Domain
import Logging
import Persistence
import Transport
import WireContract
import WireJSON

/// The admin operations of the contract, over the running service's parts: ``handle(_:)``
/// dispatches each ``AdminOperation`` to its server side, one file per operation in
/// `Admin/Operations`. Every operation answers from state that is readable at once (atomics,
/// locks), so the admin endpoint answers even when every use case is saturated; only `backup`,
/// `health` and `status` (whether the store answers) touch the store.
struct AdminOperations: Sendable {
    let availability: ServiceAvailability
    let useCaseEndpoints: [UseCaseEndpoint]
    let useCaseAddresses: [UseCaseName: String]
    /// The live event stream: `stats` reports its figures.
    let eventStream: EventStreamEndpoint
    /// The live event stream's bound address.
    let eventStreamAddress: String
    /// The event log's endpoint: `stats` counts its callers with the use cases'.
    let eventLog: EventLogEndpoint
    /// The event log's bound address.
    let eventLogAddress: String
    let store: ServiceStore
    let logLevel: LogLevelControl?
    let late: LateBoundParts
    let startedAt: ContinuousClock.Instant
    /// The rate new orders are taxed at, reported by `status` so clients can check order totals.
    let taxRate: TaxRate
    /// Served as Prometheus text by `stats` with format `prometheus`.
    let metrics: ServiceMetrics
    /// The use-case endpoints' ZAP handler when they are CURVE servers: `stats` reports its refusals.
    let authenticator: ZAPAuthenticator?
    /// The callers of the use cases and the event log (``CallerGrant/anonymous`` alone without
    /// `--client-keys`): `stats` reports requests dropped for keys no longer listed.
    let callers: CallerDirectory
    let logger: Logger

    /// Runs the request's operation.
    func handle(_ request: AdminRequest) async throws -> JSONValue {
        switch request.op {
        case .status: await status()
        case .endpoints: endpoints()
        case .stats: try statistics(request.params)
        case .health: await health()
        case .drain: drain()
        case .resume: resume()
        case .shutdown: shutdown()
        case .backup: try await backup(request.params)
        case .setLogLevel: try setLogLevel(request.params)
        case .describe: describe()
        }
    }

    /// The state `status`, `drain` and `resume` report.
    var serviceState: AdminOperation.ServiceState {
        availability.isRefusingRequests ? .draining : .running
    }

    /// A result object with `members` in this order.
    func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }
}

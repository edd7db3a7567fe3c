// Its API speaks the contract's names (UseCaseName, WireErrorCode): a client imports this
// module alone.
@_exported import WireContract
import Foundation
import Synchronization
import WireJSON
import ZeroMQ

/// Typed async access to svcd's use cases (wire protocol v1, Docs/PROTOCOL.md), and to its
/// events (``events(after:types:)``, ``eventLog(after:limit:types:)``), over one svcd instance or
/// all instances of a cluster.
///
/// Create one per service (it is `Sendable`; share it freely):
/// - one instance: from discovery (``discover(dataDirectory:options:)``,
///   ``init(endpointsFile:options:)``) or explicit addresses (``init(endpoints:options:)``);
/// - a cluster: from a cluster file (``init(cluster:options:)``, ``init(clusterFile:options:)``),
///   `endpoints.json` paths (``init(endpointsFiles:options:)``), explicit addresses per instance
///   (``init(instanceEndpoints:options:)``), or any mix (``init(instances:options:onAttempt:)``).
///
/// **Spreading (round-robin).** Calls take turns over the live instances (those not cooling
/// down) in list order: while `m` instances are live, `k × m` sequential calls reach each of
/// them exactly `k` times.
///
/// **Failover (Freelance, ZeroMQ Guide ch. 4).** No broker: after a timeout, an unreachable
/// instance, or an `unavailable` reply, the call goes on to the next live instance at once. Those
/// instances cool down (``RestaurantClientOptions/coolDown``, doubling up to
/// ``RestaurantClientOptions/maxCoolDown``) and are skipped meanwhile by every call; when all
/// are cooling down, calls still try them, the longest-failed first. `overloaded` and
/// `deadline_exceeded` replies are resent too (to the next instance). An instance's
/// `endpoints.json` is read when first needed and again whenever it changes; a changed file ends
/// its cool-down (it restarted, perhaps on other ports), and one that cannot be read counts as
/// down. Every call stays within ``RestaurantClientOptions/maxAttempts(instanceCount:)``
/// attempts and ``RestaurantClientOptions/worstCaseDuration(instanceCount:)``.
///
/// **Idempotency keys.** Every write (``UseCaseName/writes``) carries an envelope
/// `idempotencyKey`, the same on every attempt of one call and new for each call, unless the
/// caller passes its own (``call(_:params:idempotencyKey:)``, or the `idempotencyKey:` parameter
/// of each typed write). So writes are resent after a timeout like reads: the service applies a
/// key at most once and answers a repeat with the first result. An `internal` reply to a keyed
/// write saying its commit outcome is unknown is resent as well; other `internal` replies and
/// every other error are returned. Reads carry no key.
///
/// **Threads.** Blocking libzmq calls never run on Swift's cooperative pool: each call runs on
/// a dedicated thread that creates, uses and closes a REQ socket per attempt (linger 0).
///
/// **Times** (`joinedAt`, `createdAt`, `subscriptionActiveUntil`) are kept as the wire's
/// ISO-8601 UTC strings (`2026-11-21T20:43:28.175Z`).
public final class RestaurantClient: Sendable {
    /// The instances this client spreads calls over, in the order given.
    public let instances: [SvcdInstance]
    /// Timeouts, retries and cool-downs.
    public let options: RestaurantClientOptions

    let roster: FailoverRoster
    let transport: FreelanceExchange
    let nextRequest = Atomic<UInt64>(0)
    private let attemptObserver: @Sendable (RestaurantClientAttempt) -> Void

    /// The use-case addresses of the first instance: its explicit map, or its `endpoints.json`
    /// as last read (empty if it has not been read successfully yet).
    public var endpoints: [UseCaseName: String] { roster.instances[0].lastKnownAddresses }

    /// Creates a client over `instances` (at least one), calling `onAttempt` on the I/O thread
    /// before every send — for metrics, logs and tests. Nothing is read or connected yet.
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` for an empty list,
    ///   ``RestaurantClientError/unavailable(_:)`` when no ZeroMQ context can be made.
    public init(
        instances: [SvcdInstance], options: RestaurantClientOptions = RestaurantClientOptions(),
        onAttempt: @escaping @Sendable (RestaurantClientAttempt) -> Void = { _ in }
    ) throws(RestaurantClientError) {
        guard !instances.isEmpty else { throw .invalidArgument("a RestaurantClient needs at least one svcd instance") }
        self.instances = instances
        self.options = options
        self.attemptObserver = onAttempt
        roster = FailoverRoster(instances, options: options)
        do {
            transport = FreelanceExchange(context: try ZMQContext(ioThreads: 1, blocky: false), roster: roster)
        } catch {
            throw .unavailable("cannot create a ZeroMQ context: \(error)")
        }
    }

    /// Creates a client for one instance at explicit use-case addresses (e.g.
    /// `tcp://127.0.0.1:7107`).
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when no ZeroMQ context can be made.
    public convenience init(
        endpoints: [UseCaseName: String], options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(instances: [.addresses(endpoints)], options: options)
    }

    /// Creates a client for one instance at explicit addresses, calling `onAttempt(useCase,
    /// attempt)` (attempt 0 is the first send, 1… are resends) on the I/O thread before every
    /// send — for metrics and tests.
    public convenience init(
        endpoints: [UseCaseName: String], options: RestaurantClientOptions = RestaurantClientOptions(),
        onAttempt: @escaping @Sendable (UseCaseName, Int) -> Void
    ) throws(RestaurantClientError) {
        try self.init(instances: [.addresses(endpoints)], options: options) { onAttempt($0.useCase, $0.number) }
    }

    /// Creates a client for one instance from the `endpoints.json` svcd wrote (its `useCases`
    /// map of use-case name → address; unknown names are ignored). The file is read now, and
    /// again whenever it changes (svcd restarted, perhaps on other ports).
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when the file cannot be read or has
    ///   no `useCases` object.
    public convenience init(
        endpointsFile path: String, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(instances: [.endpointsFile(path)], options: options)
        _ = try roster.instances[0].resolve().get()
    }

    /// Creates a client from `DIR/endpoints.json`. `dataDirectory` defaults to the environment
    /// variable `SVC_DATA_DIR`, else `./svc-data` (svcd's own default).
    public static func discover(
        dataDirectory: String? = nil, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) -> RestaurantClient {
        let directory = dataDirectory ?? ProcessInfo.processInfo.environment["SVC_DATA_DIR"] ?? "./svc-data"
        let path = URL(fileURLWithPath: directory).appendingPathComponent(EndpointsFile.fileName).path
        return try RestaurantClient(endpointsFile: path, options: options)
    }

    /// Creates a client over the instances a cluster file lists (see ``ClusterFile``). Their
    /// `endpoints.json` files are read when calls need them, so instances may start later.
    public convenience init(
        cluster: ClusterFile, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(endpointsFiles: cluster.endpointsFiles, options: options)
    }

    /// Reads the cluster file at `path` (``ClusterFile/read(_:)``) and creates a client over its
    /// instances.
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when the cluster file cannot be read
    ///   or lists no instance.
    public convenience init(
        clusterFile path: String, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(cluster: ClusterFile.read(path), options: options)
    }

    /// Creates a client over one instance per path: an `endpoints.json`, or a data directory
    /// holding one (relative paths are relative to the working directory). The files are read
    /// when calls need them.
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` for an empty list.
    public convenience init(
        endpointsFiles paths: [String], options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(instances: paths.map { .endpointsFile(ClusterFile.endpointsFile(for: $0)) }, options: options)
    }

    /// Creates a client over one instance per use-case address map.
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` for an empty list.
    public convenience init(
        instanceEndpoints: [[UseCaseName: String]], options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(instances: instanceEndpoints.map { .addresses($0) }, options: options)
    }

    /// Sends one request to `useCase` with `params` and returns the reply's `result` object,
    /// applying the failover and retry policy. The typed methods are built on this; use it for
    /// anything they do not cover.
    ///
    /// The request carries the calling task's trace context (its `ServiceContext`, as the
    /// process's instrument injects it: with swift-otel's, the current span as `traceparent`
    /// and `tracestate`), so svcd's span for it continues the caller's trace; with no
    /// instrument bootstrapped, none.
    ///
    /// - Parameter idempotencyKey: `nil` (the default) gives every write a new random key
    ///   (``makeIdempotencyKey()``) and reads none. A key given here is sent as given, on every
    ///   attempt; pass the same key again (e.g. after your own restart) to make a repeated write
    ///   take effect at most once. Reads ignore it.
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` for a key that is not 1 to 128
    ///   characters (nothing is sent); otherwise the service's error, a timeout, or why no
    ///   instance could be reached.
    public func call(
        _ useCase: UseCaseName, params: JSONObject, idempotencyKey: String? = nil
    ) async throws(RestaurantClientError) -> JSONObject {
        let key = try Self.envelopeKey(for: useCase, given: idempotencyKey)
        let number = nextRequest.add(1, ordering: .relaxed).newValue
        let requestID = "rc-\(number)"
        let trace = OutgoingTrace.current()
        let envelope = WireEnvelope.request(
            id: requestID, params: params, idempotencyKey: key, traceparent: trace.traceparent, tracestate: trace.tracestate)
        let job = FreelanceExchange.Job(
            useCase: useCase, requestID: requestID, idempotencyKey: key, body: envelope.encoded(),
            options: options, onAttempt: attemptObserver)
        return try await transport.run(job).get()
    }

    /// ``call(_:params:idempotencyKey:)`` with the result wrapped for decoding.
    func fields(_ useCase: UseCaseName, _ params: JSONObject, idempotencyKey: String? = nil) async throws(RestaurantClientError) -> Fields {
        Fields(object: try await call(useCase, params: params, idempotencyKey: idempotencyKey), path: WireEnvelope.Key.result.name)
    }
}

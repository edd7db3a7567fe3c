import Foundation
import Synchronization
import WireJSON
import ZeroMQ

/// Typed async access to svcd's 22 use cases (wire protocol v1, Docs/PROTOCOL.md).
///
/// Create one per service (it is `Sendable`; share it freely) from discovery
/// (``discover(dataDirectory:options:)``, ``init(endpointsFile:options:)``) or from explicit
/// addresses (``init(endpoints:options:)``).
///
/// **Threads.** Blocking libzmq calls never run on Swift's cooperative pool: each call runs on
/// a dedicated thread that creates, uses and closes its own REQ socket (linger 0, receive
/// timeout ``RestaurantClientOptions/timeout``).
///
/// **Lazy Pirate.** After a timeout the socket is discarded; a read (``UseCase/isIdempotentRead``)
/// is sent again on a fresh socket up to ``RestaurantClientOptions/retries`` times with a
/// doubling back-off. A write is never resent after a timeout (it may have happened), but any
/// call answered `overloaded`, `deadline_exceeded` or `unavailable` (which the contract
/// guarantees had no effect) is resent within the same retry budget.
///
/// **Times** (`joinedAt`, `createdAt`, `subscriptionActiveUntil`) are kept as the wire's
/// ISO-8601 UTC strings (`2026-11-21T20:43:28.175Z`).
public final class RestaurantClient: Sendable {
    /// The address of each use case this client knows.
    public let endpoints: [UseCase: String]
    /// Timeouts and retries.
    public let options: RestaurantClientOptions

    private let transport: LazyPirate
    private let nextRequest = Atomic<UInt64>(0)
    private let attemptObserver: @Sendable (UseCase, Int) -> Void

    /// Creates a client for explicit use-case addresses (e.g. `tcp://127.0.0.1:7107`).
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when no ZeroMQ context can be made.
    public convenience init(
        endpoints: [UseCase: String], options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(endpoints: endpoints, options: options, onAttempt: { _, _ in })
    }

    /// Creates a client for explicit addresses, calling `onAttempt(useCase, attempt)` (attempt
    /// 0 is the first send, 1… are retries) on the I/O thread before every send — for metrics
    /// and tests.
    public init(
        endpoints: [UseCase: String], options: RestaurantClientOptions = RestaurantClientOptions(),
        onAttempt: @escaping @Sendable (UseCase, Int) -> Void
    ) throws(RestaurantClientError) {
        self.endpoints = endpoints
        self.options = options
        self.attemptObserver = onAttempt
        do {
            transport = LazyPirate(context: try ZMQContext(ioThreads: 1, blocky: false))
        } catch {
            throw .unavailable("cannot create a ZeroMQ context: \(error)")
        }
    }

    /// Creates a client from an `endpoints.json` written by svcd (its `useCases` map of
    /// use-case name → address; unknown names are ignored).
    /// - Throws: ``RestaurantClientError/unavailable(_:)`` when the file cannot be read or has
    ///   no `useCases` object.
    public convenience init(
        endpointsFile path: String, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) {
        try self.init(endpoints: Self.readEndpoints(path), options: options)
    }

    /// Creates a client from `DIR/endpoints.json`. `dataDirectory` defaults to the environment
    /// variable `SVC_DATA_DIR`, else `./svc-data` (svcd's own default).
    public static func discover(
        dataDirectory: String? = nil, options: RestaurantClientOptions = RestaurantClientOptions()
    ) throws(RestaurantClientError) -> RestaurantClient {
        let directory = dataDirectory ?? ProcessInfo.processInfo.environment["SVC_DATA_DIR"] ?? "./svc-data"
        let path = URL(fileURLWithPath: directory).appendingPathComponent("endpoints.json").path
        return try RestaurantClient(endpointsFile: path, options: options)
    }

    static func readEndpoints(_ path: String) throws(RestaurantClientError) -> [UseCase: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unavailable("cannot read \(path); is svcd running?")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(data))
        } catch {
            throw .unavailable("\(path) is not valid JSON: \(error)")
        }
        guard let useCases = value["useCases"]?.objectValue else {
            throw .unavailable("\(path) has no useCases object")
        }
        var map: [UseCase: String] = [:]
        for member in useCases {
            if let useCase = UseCase(rawValue: member.key), let address = member.value.stringValue {
                map[useCase] = address
            }
        }
        return map
    }

    /// Sends one request to `useCase` with `params` and returns the reply's `result` object,
    /// applying the retry policy. The typed methods are built on this; use it for anything
    /// they do not cover.
    public func call(_ useCase: UseCase, params: JSONObject) async throws(RestaurantClientError) -> JSONObject {
        guard let address = endpoints[useCase] else {
            throw .unavailable("no address for \(useCase.rawValue)")
        }
        let number = nextRequest.add(1, ordering: .relaxed).newValue
        let requestID = "rc-\(number)"
        let envelope: JSONValue = .object(["v": 1, "id": .string(requestID), "params": .object(params)])
        let job = LazyPirate.Job(
            useCase: useCase, address: address, requestID: requestID, body: envelope.encoded(),
            options: options, onAttempt: attemptObserver)
        return try await transport.run(job).get()
    }

    /// ``call(_:params:)`` with the result wrapped for decoding.
    func fields(_ useCase: UseCase, _ params: JSONObject) async throws(RestaurantClientError) -> Fields {
        Fields(object: try await call(useCase, params: params), path: "result")
    }
}

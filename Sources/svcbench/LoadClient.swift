import LoadEngine
import WireContract
import ZeroMQ

/// The one client used against both targets: LoadEngine's ``PipelinedClient``, a DEALER on its
/// own dedicated thread (never the cooperative pool) that keeps `inFlight` requests outstanding,
/// answers every reply with the next request on the same slot, and times each request from send
/// to reply. This type only says what svcbench sends and turns the outcome into a ``RunResult``.
///
/// Every run gets a fresh thread and a fresh socket, so echo and service runs start alike.
/// Requests are `[empty, body]` with `body = {"v":1,"id":"<slot>","params":{"restaurantId":"r-000042"}}`
/// (byte-identical for both targets; the restaurant id is configurable); the reply's id says
/// which slot it answers. With ``Workload/registerUser(tag:)`` every request instead registers a
/// new user; with CURVE keys the socket is a CURVE client.
struct LoadClient: Sendable {
    /// What each request asks for.
    enum Workload: Sendable, Hashable {
        /// GetRestaurant with the client's `restaurantId`: the same body for a slot every time.
        case getRestaurant
        /// RegisterUser with a new e-mail per request, `<tag>-<9-digit sequence>@bench.example`;
        /// `tag` must differ between runs against the same store, or the e-mails collide.
        case registerUser(tag: String)
        /// PlaceOrder with the same params every time (`OrderFixtures`' for one slot).
        case placeOrder(params: String)
    }

    /// The client's own context (its own libzmq I/O thread), shared by every run.
    let context: ZMQContext
    let warmupNanoseconds: UInt64
    let windowNanoseconds: UInt64
    /// The GetRestaurant parameter (the sample data's `r-000042` by default).
    let restaurantId: String
    /// A run fails when no reply arrives for this long.
    let replyTimeoutMilliseconds: Int32 = 5000

    /// The GetRestaurant params.
    private var params: String { #"{"\#(WireMember.restaurantId.name)":"\#(restaurantId)"}"# }

    /// The request body of a slot.
    func body(slot: Int) -> [UInt8] {
        WireEnvelope.requestBytes(id: String(slot), paramsJSON: params)
    }

    /// The RegisterUser params of the request numbered `sequence`: the same length for every
    /// sequence below 10⁹, so every request costs the client alike.
    static func registrationParams(tag: String, sequence: Int) -> String {
        let digits = String(sequence)
        let padded = String(repeating: "0", count: max(0, 9 - digits.count)) + digits
        return #"{"\#(WireMember.name.name)":"Bench User","\#(WireMember.email.name)":"\#(tag)-\#(padded)@bench.example"}"#
    }

    /// The RegisterUser request body of `slot` for the request numbered `sequence`.
    static func registrationBody(slot: Int, tag: String, sequence: Int) -> [UInt8] {
        WireEnvelope.requestBytes(id: String(slot), paramsJSON: registrationParams(tag: tag, sequence: sequence))
    }

    /// Runs warm-up plus one measurement window against `endpoint` on a new thread; with
    /// `requests`, instead sends exactly that many requests (no warm-up, every reply counts)
    /// and the window is the time they took. `workload` is what the requests ask (the echo
    /// only gets GetRestaurant: its fast check compares lengths); `curve` makes the socket a
    /// CURVE client.
    func run(
        _ target: BenchTarget, endpoint: String, inFlight: Int, round: Int, requests: Int? = nil,
        workload: Workload = .getRestaurant, curve: CurveClientKeys? = nil
    ) async throws -> RunResult {
        let sent: PipelinedRequests
        switch workload {
        case .getRestaurant:
            let params = params
            sent = .samePerSlot { _ in params }
        case .registerUser(let tag):
            sent = .each { _, sequence in Self.registrationParams(tag: tag, sequence: sequence) }
        case .placeOrder(let params):
            sent = .samePerSlot { _ in params }
        }
        var client = PipelinedClient(
            endpoint: endpoint, context: context, server: target == .echo ? .echo : .service, slots: inFlight, requests: sent,
            schedule: requests.map { .requests($0) } ?? .window(warmupNanoseconds: warmupNanoseconds, windowNanoseconds: windowNanoseconds))
        client.curve = curve
        client.replyTimeoutMilliseconds = replyTimeoutMilliseconds
        client.threadName = "svcbench-client"
        client.label = target.rawValue
        var outcome = try await client.run()
        return RunResult(
            target: target, inFlight: inFlight, round: round, latencies: &outcome.latencies, errors: outcome.failures,
            windowNanoseconds: outcome.windowNanoseconds)
    }
}

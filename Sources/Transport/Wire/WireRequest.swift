import Domain
import WireContract
import WireJSON

/// A request body of wire protocol v1 that passed envelope checks.
public struct WireRequest: Sendable {
    /// The longest accepted request id, in characters.
    public static let maximumIdLength = 128

    /// The caller's correlation id, echoed in the reply.
    public let id: String?
    /// The use case's parameters (`{}` when absent).
    public let params: Params
    /// Milliseconds after receipt by which the request must have started, if given.
    public let deadlineMilliseconds: Int?
    /// The caller's idempotency key, if given (1 to 128 characters); writes bind it.
    public let idempotencyKey: String?
    /// The admin operation's name (`op`) when it is a string; the admin endpoint checks it,
    /// use cases ignore it like any member they do not know.
    public let operation: String?
    /// The caller's trace context and trace state, when it sent a valid `traceparent`.
    public let callerTrace: CallerTrace?

    /// The caller's trace context (`traceparent`), when it sent a valid one.
    public var trace: TraceContext? { callerTrace?.context }
    /// The caller's `tracestate`, kept only with a valid `traceparent`, as it came.
    public var tracestate: String? { callerTrace?.tracestate }

    /// Creates a request.
    public init(
        id: String?, params: Params, deadlineMilliseconds: Int?, idempotencyKey: String? = nil, operation: String? = nil,
        trace: TraceContext? = nil, tracestate: String? = nil
    ) {
        self.id = id
        self.params = params
        self.deadlineMilliseconds = deadlineMilliseconds
        self.idempotencyKey = idempotencyKey
        self.operation = operation
        callerTrace = trace.map { CallerTrace(context: $0, tracestate: tracestate) }
    }

    /// A body that failed the envelope checks: the error and the request id when one could be read.
    public struct Rejection: Error, Sendable {
        /// The id to echo, when the body had a valid one.
        public let id: String?
        /// Why it was rejected.
        public let error: WireError
    }

    /// Decodes one body frame: a UTF-8 JSON object with `v` = 1, an optional string `id` of at
    /// most 128 characters, an optional object `params`, an optional non-negative integer
    /// `deadlineMs` and an optional string `idempotencyKey` of 1 to 128 characters; a string
    /// `op` is kept for the admin endpoint; a valid `traceparent` (and with it a `tracestate` of
    /// at most 512 characters) is kept, an invalid one ignored, never refused. Explicit `null`s
    /// count as absent; unknown members are ignored.
    public static func decode(_ body: UnsafeRawBufferPointer) throws(Rejection) -> WireRequest {
        if let request = decodeCommonShape(body) {
            return request
        }
        return try decodeGeneral(body)
    }

    /// The general decoder: parses the whole body, then checks each member; every rejection
    /// is worded here.
    static func decodeGeneral(_ body: UnsafeRawBufferPointer) throws(Rejection) -> WireRequest {
        guard body.count > 0 else {
            throw Rejection(id: nil, error: WireError(.malformed, "the body frame is empty"))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw Rejection(id: nil, error: WireError(.malformed, "the body is not valid JSON: \(error.description)"))
        }
        guard case .object(let object) = value else {
            throw Rejection(id: nil, error: WireError(.malformed, "the body must be a JSON object"))
        }
        var id: String?
        switch object[WireEnvelope.Key.id.name] {
        case nil, .null?:
            id = nil
        case .string(let text)?:
            // Never more characters than UTF-8 bytes: count characters only when bytes don't settle it.
            guard text.utf8.count <= maximumIdLength || text.count <= maximumIdLength else {
                throw Rejection(id: nil, error: WireError(.malformed, "\(WireEnvelope.Key.id.name) must be a string of at most \(maximumIdLength) characters"))
            }
            id = text
        default:
            throw Rejection(id: nil, error: WireError(.malformed, "\(WireEnvelope.Key.id.name) must be a string of at most \(maximumIdLength) characters"))
        }
        switch object[WireEnvelope.Key.version.name] {
        case .number(let number)?:
            guard number.int64Value == Int64(WireEnvelope.version) else {
                throw Rejection(id: id, error: WireError(.unsupportedVersion, "protocol version \(number.text) is not supported; use \(WireEnvelope.version)"))
            }
        case nil:
            throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.version.name) is required and must be the number \(WireEnvelope.version)"))
        default:
            throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.version.name) must be the number \(WireEnvelope.version)"))
        }
        let params: JSONObject
        switch object[WireEnvelope.Key.params.name] {
        case nil, .null?: params = JSONObject()
        case .object(let given)?: params = given
        default: throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.params.name) must be a JSON object"))
        }
        var deadline: Int?
        switch object[WireEnvelope.Key.deadline.name] {
        case nil, .null?:
            deadline = nil
        case .number(let number)?:
            guard let milliseconds = number.intValue, milliseconds >= 0 else {
                throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.deadline.name) must be a non-negative integer"))
            }
            deadline = milliseconds
        default:
            throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.deadline.name) must be a non-negative integer"))
        }
        var idempotencyKey: String?
        switch object[WireEnvelope.Key.idempotencyKey.name] {
        case nil, .null?:
            idempotencyKey = nil
        case .string(let key)? where IdempotencyClaim.keyLengths.contains(key.count):
            idempotencyKey = key
        default:
            throw Rejection(id: id, error: WireError(.malformed, "\(WireEnvelope.Key.idempotencyKey.name) must be a string of \(IdempotencyClaim.keyLengths.lowerBound) to \(IdempotencyClaim.keyLengths.upperBound) characters"))
        }
        // The common shape has neither member, so only this path reads them.
        let trace = object[WireEnvelope.Key.traceparent.name]?.stringValue.flatMap(TraceContext.parse(traceparent:))
        let tracestate = object[WireEnvelope.Key.tracestate.name]?.stringValue.flatMap {
            $0.utf8.count <= TraceContext.maximumTracestateLength ? $0 : nil
        }
        return WireRequest(
            id: id, params: Params(params), deadlineMilliseconds: deadline, idempotencyKey: idempotencyKey,
            operation: object[WireEnvelope.Key.op.name]?.stringValue, trace: trace, tracestate: tracestate
        )
    }

    /// Decodes a body held in an array.
    public static func decode(_ body: [UInt8]) throws(Rejection) -> WireRequest {
        // Typed throws cannot cross withUnsafeBytes' rethrows, so carry the result out.
        let result: Result<WireRequest, Rejection> = body.withUnsafeBytes { bytes in
            do throws(Rejection) { return .success(try decode(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

import WireJSON

/// The envelope of wire protocol v1, shared by every request and reply:
///
/// - request `{"v":1,"id":"…","params":{…},"deadlineMs":…,"idempotencyKey":"…"}`, optionally with
///   `"traceparent"` and `"tracestate"` (admin requests add `"op"`),
/// - success `{"v":1,"id":…,"ok":true,"result":{…}}`,
/// - failure `{"v":1,"id":…,"ok":false,"error":{"code":"…","message":"…"}}`, the error adding
///   `"outcome":"unknown"` for a write whose commit outcome is unknown.
///
/// The member names are spelled here and nowhere else; the service's decoder and encoder, the
/// client library, svcctl, the benchmarks and the tests use them.
public enum WireEnvelope {
    /// The protocol version, the value of `v`.
    public static let version = 1

    /// The envelope's member names.
    public enum Key {
        /// `v`: the protocol version.
        public static let version = WireKey("v")
        /// `id`: the caller's correlation id, echoed in the reply.
        public static let id = WireKey("id")
        /// `params`: the use case's (or admin operation's) parameters.
        public static let params = WireKey("params")
        /// `deadlineMs`: milliseconds after receipt by which the request must have started.
        public static let deadline = WireKey("deadlineMs")
        /// `idempotencyKey`: makes resending a write safe.
        public static let idempotencyKey = WireKey("idempotencyKey")
        /// `op`: the admin operation.
        public static let op = WireKey("op")
        /// `traceparent` (optional): the caller's W3C trace context; an invalid value is ignored.
        public static let traceparent = WireKey("traceparent")
        /// `tracestate` (optional): the caller's vendor trace state, kept with a valid `traceparent`.
        public static let tracestate = WireKey("tracestate")
        /// `ok`: whether the request succeeded.
        public static let ok = WireKey("ok")
        /// `result`: a success's payload.
        public static let result = WireKey("result")
        /// `error`: a failure's code and message.
        public static let error = WireKey("error")
        /// `code` (inside `error`): a ``WireErrorCode``'s raw value.
        public static let code = WireKey("code")
        /// `message` (inside `error`): what went wrong, in plain words.
        public static let message = WireKey("message")
        /// `outcome` (inside `error`, optional): a ``WireErrorOutcome``'s raw value.
        public static let outcome = WireKey("outcome")
    }

    /// A use-case request; `traceparent` and `tracestate` carry the caller's trace context.
    public static func request(
        id: String?, params: JSONObject, idempotencyKey: String? = nil, deadlineMilliseconds: Int? = nil,
        traceparent: String? = nil, tracestate: String? = nil
    ) -> JSONValue {
        var envelope = JSONObject()
        envelope.append(key: Key.version.name, value: .int(version))
        if let id { envelope.append(key: Key.id.name, value: .string(id)) }
        if let idempotencyKey { envelope.append(key: Key.idempotencyKey.name, value: .string(idempotencyKey)) }
        if let deadlineMilliseconds { envelope.append(key: Key.deadline.name, value: .int(deadlineMilliseconds)) }
        if let traceparent { envelope.append(key: Key.traceparent.name, value: .string(traceparent)) }
        if let tracestate { envelope.append(key: Key.tracestate.name, value: .string(tracestate)) }
        envelope.append(key: Key.params.name, value: .object(params))
        return .object(envelope)
    }

    /// An admin request for `operation`.
    public static func adminRequest(id: String?, operation: AdminOperation, params: JSONObject = JSONObject()) -> JSONValue {
        var envelope = JSONObject()
        envelope.append(key: Key.version.name, value: .int(version))
        if let id { envelope.append(key: Key.id.name, value: .string(id)) }
        envelope.append(key: Key.op.name, value: .string(operation.rawValue))
        envelope.append(key: Key.params.name, value: .object(params))
        return .object(envelope)
    }

    /// The bytes of a use-case request whose `params` are JSON text already (load generators
    /// make them by the million): `{"v":1,"id":"<id>","params":<paramsJSON>}`, with
    /// `idempotencyKey` before `params` when given. `id` and the key must need no escaping.
    public static func requestBytes(id: String, paramsJSON: String, idempotencyKey: String? = nil) -> [UInt8] {
        requestBytes(id: id, params: Array(paramsJSON.utf8), idempotencyKey: idempotencyKey)
    }

    /// ``requestBytes(id:paramsJSON:idempotencyKey:)`` with `params` as UTF-8 bytes already.
    public static func requestBytes(id: String, params: [UInt8], idempotencyKey: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(requestByteCount(idBytes: id.utf8.count, keyBytes: idempotencyKey?.utf8.count, paramsBytes: params.count))
        appendRequest(params: params, hasKey: idempotencyKey != nil, to: &bytes) { $0.append(contentsOf: id.utf8) } key: {
            $0.append(contentsOf: idempotencyKey!.utf8)
        }
        return bytes
    }

    /// How many bytes ``appendRequest(id:params:keyPrefix:keyNumber:to:)`` appends.
    public static func requestByteCount(id: UInt64, params: [UInt8], keyPrefix: String?, keyNumber: UInt64) -> Int {
        requestByteCount(idBytes: decimalDigits(id), keyBytes: keyPrefix.map { $0.utf8.count + decimalDigits(keyNumber) }, paramsBytes: params.count)
    }

    /// Appends to `bytes` what ``requestBytes(id:params:idempotencyKey:)`` makes of the decimal
    /// `id` and, when `keyPrefix` is given, the key `keyPrefix` followed by the decimal
    /// `keyNumber`, without making those strings: load generators write requests by the million
    /// straight into what they send. `keyPrefix` must need no escaping.
    public static func appendRequest(id: UInt64, params: [UInt8], keyPrefix: String?, keyNumber: UInt64, to bytes: inout [UInt8]) {
        appendRequest(params: params, hasKey: keyPrefix != nil, to: &bytes) { appendDecimal(id, to: &$0) } key: {
            $0.append(contentsOf: keyPrefix!.utf8)
            appendDecimal(keyNumber, to: &$0)
        }
    }

    /// The request layout, once: the prefix, the id `id` writes, the key `key` writes when there
    /// is one, the params. (Closures that do not escape: nothing is allocated for them.)
    private static func appendRequest(
        params: [UInt8], hasKey: Bool, to bytes: inout [UInt8], id: (inout [UInt8]) -> Void, key: (inout [UInt8]) -> Void
    ) {
        bytes.append(contentsOf: requestPrefix)
        id(&bytes)
        if hasKey {
            bytes.append(contentsOf: keyBeforeValue)
            key(&bytes)
        }
        bytes.append(contentsOf: paramsAfterId)
        bytes.append(contentsOf: params)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The size of that layout with an id, a key (`nil`: none) and params of these sizes.
    private static func requestByteCount(idBytes: Int, keyBytes: Int?, paramsBytes: Int) -> Int {
        requestPrefix.count + idBytes + (keyBytes.map { keyBeforeValue.count + $0 } ?? 0) + paramsAfterId.count + paramsBytes + 1
    }

    private static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    private static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        let digits = decimalDigits(value)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var rest = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// What ``requestBytes(id:params:idempotencyKey:)`` writes after the id to start the key.
    private static let keyBeforeValue = Array("\",\"\(Key.idempotencyKey.name)\":\"".utf8)
    /// What it writes after the id (or the key) up to the params.
    private static let paramsAfterId = Array("\",\"\(Key.params.name)\":".utf8)

    /// The bytes every request made by ``requestBytes(id:paramsJSON:idempotencyKey:)`` starts
    /// with, up to the id's first character: `{"v":1,"id":"`.
    public static let requestPrefix = Array("{\"\(Key.version.name)\":\(version),\"\(Key.id.name)\":\"".utf8)

    /// The bytes that follow the id's closing quote in every success reply the service sends:
    /// `,"ok":true`.
    public static let successAfterId = Array(",\"\(Key.ok.name)\":true".utf8)

    /// The bytes that follow ``successAfterId`` in every success reply the service sends, up to
    /// the result's first byte: `,"result":`.
    public static let resultAfterSuccess = Array(",\"\(Key.result.name)\":".utf8)
}

extension WireEnvelope {
    /// A reply as a client reads it.
    public enum Reply: Sendable, Hashable {
        /// `"ok":true`, with its `result`.
        case success(result: JSONObject)
        /// `"ok":false`, with its error's code and outcome (as sent: values this version does not
        /// know stay readable) and message.
        case failure(code: String, message: String, outcome: String?)

        /// The code as a ``WireErrorCode`` (`nil` on success or for a code this version does not
        /// know).
        public var errorCode: WireErrorCode? {
            guard case .failure(let code, _, _) = self else { return nil }
            return WireErrorCode(rawValue: code)
        }

        /// The outcome as a ``WireErrorOutcome`` (`nil` on success, when the error has none, or
        /// for a value this version does not know).
        public var errorOutcome: WireErrorOutcome? {
            guard case .failure(_, _, let outcome?) = self else { return nil }
            return WireErrorOutcome(rawValue: outcome)
        }
    }

    /// Reads a parsed reply: an object with `v` = 1, a boolean `ok`, and a `result` object
    /// (success) or an `error` object with a string `code` (failure; `message` may be missing,
    /// `outcome` is read when it is a string).
    /// Returns the reply and its `id` (`nil` when absent or `null`), or what is wrong with it, in
    /// plain words.
    public static func readReply(_ value: JSONValue) -> Result<(id: String?, reply: Reply), ReplyShapeError> {
        guard let envelope = value.objectValue else { return .failure(ReplyShapeError("the reply is not a JSON object")) }
        guard envelope[Key.version.name]?.intValue == version else {
            return .failure(ReplyShapeError("the reply's \(Key.version.name) is not \(version)"))
        }
        let id = envelope[Key.id.name]?.stringValue
        switch envelope[Key.ok.name]?.boolValue {
        case true?:
            guard let result = envelope[Key.result.name]?.objectValue else {
                return .failure(ReplyShapeError("a success reply without a \(Key.result.name) object"))
            }
            return .success((id, .success(result: result)))
        case false?:
            guard let error = envelope[Key.error.name]?.objectValue, let code = error[Key.code.name]?.stringValue else {
                return .failure(ReplyShapeError("a failure reply without \(Key.error.name).\(Key.code.name)"))
            }
            let message = error[Key.message.name]?.stringValue ?? ""
            return .success((id, .failure(code: code, message: message, outcome: error[Key.outcome.name]?.stringValue)))
        case nil:
            return .failure(ReplyShapeError("the reply has no boolean \(Key.ok.name)"))
        }
    }
}

/// Why a reply does not have the envelope's shape, in plain words.
public struct ReplyShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// One member name of the envelope, usable as a literal (``JSONWriter/key(literal:)``) and as
/// a string.
public struct WireKey: Sendable {
    /// The name as a literal.
    public let literal: StaticString
    /// The name (made once, when the constant is).
    public let name: String

    init(_ literal: StaticString) {
        self.literal = literal
        name = literal.description
    }
}

extension JSONValue {
    /// The member `key` of an object; `nil` for anything else.
    public subscript(key: WireKey) -> JSONValue? {
        self[key.name]
    }

    /// Of a reply: whether its `ok` is `true`.
    public var replySucceeded: Bool {
        self[WireEnvelope.Key.ok]?.boolValue == true
    }

    /// Of a success reply: its `result`.
    public var replyResult: JSONValue? {
        self[WireEnvelope.Key.result]
    }

    /// Of a failure reply: its `error.code`, as sent.
    public var replyErrorCode: String? {
        self[WireEnvelope.Key.error]?[WireEnvelope.Key.code]?.stringValue
    }

    /// Of a failure reply: its `error.outcome` (`nil` when absent or not one this version knows).
    public var replyErrorOutcome: WireErrorOutcome? {
        self[WireEnvelope.Key.error]?[WireEnvelope.Key.outcome]?.stringValue.flatMap(WireErrorOutcome.init(rawValue:))
    }

    /// Of a failure reply: its `error.message`, for people and logs: nothing decides from it.
    public var replyErrorMessage: String? {
        self[WireEnvelope.Key.error]?[WireEnvelope.Key.message]?.stringValue
    }
}

import WireContract
import WireJSON
import ZeroMQ

/// A client of svcd's admin endpoint, authenticated with CURVE.
struct AdminClient {
    /// The service found through endpoints.json.
    let endpoints: ServiceEndpoints
    /// The admin endpoint's address.
    let address: String
    /// CURVE credentials (server key from endpoints.json, client keys from files).
    let credentials: CurveCredentials
    /// Reply timeout.
    let timeoutMilliseconds: Int

    /// Finds the service and loads the client credentials: `--public-key-file`/`--secret-key-file`
    /// when given, otherwise the local admin key files named in endpoints.json.
    init(options: GlobalOptions) throws(CtlFailure) {
        let endpoints = try ServiceEndpoints.require(dataDirectory: options.dataDirectory)
        try self.init(options: options, endpoints: endpoints)
    }

    /// Uses already located endpoints (see ``init(options:)``).
    init(options: GlobalOptions, endpoints: ServiceEndpoints) throws(CtlFailure) {
        try self.init(common: options.common, endpoints: endpoints)
    }

    /// Talks to the svcd behind `endpoints` with the credentials and timeout of `common`
    /// (see ``init(options:)``).
    init(common options: CommonOptions, endpoints: ServiceEndpoints) throws(CtlFailure) {
        guard let admin = endpoints.admin, let serverKey = endpoints.adminServerKey else {
            throw CtlFailure(ExitStatus.unavailable, "svcd (pid \(endpoints.pid)) publishes no admin endpoint in endpoints.json (too old a version?)")
        }
        guard ZMQCurve.isKey(serverKey) else {
            throw CtlFailure(ExitStatus.unavailable, "endpoints.json holds a malformed adminServerKey")
        }
        self.endpoints = endpoints
        self.address = admin
        self.credentials = try CurveCredentials.client(of: serverKey, options: options, endpoints: endpoints)
        self.timeoutMilliseconds = options.timeoutMilliseconds
    }

    /// Sends one admin op and returns the whole reply envelope.
    func reply(op: AdminOperation, params: JSONObject = JSONObject()) throws(CtlFailure) -> JSONValue {
        let id = WireExchange.makeRequestID()
        let request = WireEnvelope.adminRequest(id: id, operation: op, params: params)
        let exchange = WireExchange(
            address: address, credentials: credentials, timeoutMilliseconds: timeoutMilliseconds,
            peerName: "the admin endpoint")
        return try exchange.send(request, id: id)
    }

    /// Sends one admin op and returns its `result`; an error reply ends with exit code 1.
    func call(op: AdminOperation, params: JSONObject = JSONObject()) throws(CtlFailure) -> JSONValue {
        let envelope = try reply(op: op, params: params)
        return try Self.result(of: envelope, what: op.rawValue)
    }

    /// The `result` of a successful envelope, or exit 1 with the error's code and message.
    static func result(of envelope: JSONValue, what: String) throws(CtlFailure) -> JSONValue {
        if envelope.replySucceeded {
            return envelope.replyResult ?? .object(JSONObject())
        }
        throw CtlFailure(ExitStatus.serviceError, "\(what) failed: \(describeError(envelope))")
    }

    /// `code: message` of an error envelope; `code (outcome unknown): message` when the error
    /// says the request may have taken effect.
    static func describeError(_ envelope: JSONValue) -> String {
        let code = envelope.replyErrorCode ?? "unknown_error"
        let outcome = envelope.replyErrorOutcome.map { " (outcome \($0.rawValue))" } ?? ""
        let message = envelope.replyErrorMessage ?? "(no message)"
        return "\(code)\(outcome): \(message)"
    }
}

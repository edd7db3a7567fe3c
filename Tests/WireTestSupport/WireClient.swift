import Foundation
import LoadEngine
import WireJSON
import ZeroMQ

/// Runs blocking client work on a dedicated thread, so blocking libzmq calls never occupy the
/// cooperative pool that the services under test (in-process actors) need.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await DedicatedThread.run(named: "wire-test-client", body)
}

/// A client socket with its own context, a receive timeout and linger 0. Created, used and
/// closed on one thread (see ``withClient(_:_:receiveTimeout:_:)``).
public final class WireClient {
    public let context: ZMQContext
    public let socket: ZMQSocket
    public let type: ZMQSocketType

    /// A client of `address`; with `curve`, a CURVE client of that server key with that pair.
    public init(_ type: ZMQSocketType, connectTo address: String, receiveTimeout milliseconds: Int32, curve: CurveClient? = nil) throws {
        self.type = type
        context = try ZMQContext()
        do {
            socket = try context.makeClientSocket(
                type, connectingTo: address, curve: curve?.loadEngineKeys, receiveTimeoutMilliseconds: milliseconds, sendTimeoutMilliseconds: 5000
            )
        } catch {
            context.terminate()
            throw error
        }
    }

    public func close() {
        socket.close()
        context.terminate()
    }

    public func setReceiveTimeout(_ milliseconds: Int32) throws {
        try socket.setReceiveTimeout(milliseconds)
    }

    /// Sends one request body: REQ sends the body alone, DEALER sends `["", body]`.
    public func send(body: [UInt8]) throws {
        switch type {
        case .dealer: try socket.sendMultipart([[], body])
        default: try socket.send(body)
        }
    }

    /// Sends raw frames as they are (DEALER framing experiments).
    public func send(frames: [[UInt8]]) throws {
        try socket.sendMultipart(frames)
    }

    /// The next message's frames, or `nil` when the receive timeout expires.
    public func receiveFrames() throws -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        guard try socket.receiveMultipart(into: &frames) != nil else { return nil }
        return frames
    }

    /// The next reply, or `nil` on timeout.
    public func receiveReply() throws -> Reply? {
        try receiveFrames().map(Reply.init(frames:))
    }

    /// One request and its reply (`nil` on timeout).
    public func call(_ body: [UInt8]) throws -> Reply? {
        try send(body: body)
        return try receiveReply()
    }

    /// Reads replies until `count` arrived or one receive times out.
    public func receiveReplies(upTo count: Int) throws -> [Reply] {
        var replies: [Reply] = []
        while replies.count < count, let reply = try receiveReply() {
            replies.append(reply)
        }
        return replies
    }
}

/// What a CURVE client needs: the server's public key and its own pair (Z85).
public struct CurveClient: Sendable {
    /// The server's public key.
    public let serverKey: String
    /// The client's pair.
    public let keys: ZMQCurveKeyPair

    /// A client of `serverKey` with `keys`.
    public init(serverKey: String, keys: ZMQCurveKeyPair) {
        self.serverKey = serverKey
        self.keys = keys
    }

    /// The same keys as the load engine's sockets take them.
    var loadEngineKeys: CurveClientKeys {
        CurveClientKeys(serverPublicKey: serverKey, client: keys)
    }
}

/// Opens a client on a fresh thread, runs `body` with it and always closes it.
public func withClient<T: Sendable>(
    _ type: ZMQSocketType, _ address: String, receiveTimeout milliseconds: Int32 = 5000, curve: CurveClient? = nil,
    _ body: @escaping @Sendable (WireClient) throws -> T
) async throws -> T {
    try await onThread {
        let client = try WireClient(type, connectTo: address, receiveTimeout: milliseconds, curve: curve)
        defer { client.close() }
        return try body(client)
    }
}

/// One request on a fresh DEALER that `configure` sets up before it connects (CURVE keys, a
/// routing id of its own, …): its reply, or `nil` when none came within `milliseconds`. Blocks
/// the calling thread: run it on one of its own (``onThread(_:)``).
public func dealerCall(
    _ address: String, _ body: [UInt8], receiveTimeout milliseconds: Int32 = 5000, configure: (ZMQSocket) throws -> Void = { _ in }
) throws -> Reply? {
    let context = try ZMQContext()
    defer { context.terminate() }
    let socket = try context.makeSocket(.dealer)
    defer { socket.close() }
    try socket.setLinger(0)
    try socket.setReceiveTimeout(milliseconds)
    try configure(socket)
    try socket.connect(address)
    try socket.sendMultipart([[], body])
    var frames: [[UInt8]] = []
    guard try socket.receiveMultipart(into: &frames) != nil else { return nil }
    return Reply(frames: frames)
}

/// One request with a fresh ``LockstepCaller`` (the REQ caller the tools use too), on a thread
/// of its own; fails the test on timeout.
public func call(_ address: String, _ body: [UInt8], receiveTimeout milliseconds: Int32 = 5000, curve: CurveClient? = nil) async throws -> Reply {
    let frames = try await onThread {
        let caller = try LockstepCaller(address: address, timeoutMilliseconds: milliseconds, curve: curve?.loadEngineKeys)
        defer { caller.close() }
        return try caller.call(body)
    }
    guard let frames else { throw NoReply(address: address, milliseconds: milliseconds) }
    return Reply(frames: frames)
}

/// No reply arrived within the receive timeout.
public struct NoReply: Error, CustomStringConvertible {
    /// Where the request went.
    public let address: String
    /// How long the client waited.
    public let milliseconds: Int32

    /// "no reply from … within … ms".
    public var description: String { "no reply from \(address) within \(milliseconds) ms" }
}

/// A received reply: its frames and the parsed last frame (the body).
public struct Reply: Sendable, CustomStringConvertible {
    /// Every frame as received.
    public let frames: [[UInt8]]
    /// The body parsed as JSON, `nil` when it is not JSON.
    public let json: JSONValue?

    /// Parses the last frame.
    public init(frames: [[UInt8]]) {
        self.frames = frames
        json = frames.last.flatMap { try? JSONParser.parse($0) }
    }

    /// The body frame.
    public var body: [UInt8] { frames.last ?? [] }
    /// `v`.
    public var version: Int? { json?["v"]?.intValue }
    /// `id`.
    public var id: JSONValue? { json?["id"] }
    /// `ok`.
    public var ok: Bool? { json?["ok"]?.boolValue }
    /// `result`.
    public var result: JSONValue? { json?["result"] }
    /// `error.code`.
    public var code: String? { json?["error"]?["code"]?.stringValue }
    /// `error.message`.
    public var message: String? { json?["error"]?["message"]?.stringValue }
    /// `error.outcome` (`"unknown"`: a write whose commit outcome is unknown).
    public var outcome: String? { json?["error"]?["outcome"]?.stringValue }

    /// The body as text.
    public var description: String { String(decoding: body, as: UTF8.self) }
}

/// The error codes of wire protocol v1 (spelled here on purpose, not taken from WireContract, so
/// the contract is checked independently of the code under test).
public let contractErrorCodes: Set<String> = [
    "malformed", "unsupported_version", "invalid_input", "not_found", "unauthorized", "business_rule",
    "conflict", "overloaded", "deadline_exceeded", "unavailable", "internal", "gone",
]

/// `{"v":1,"id":…,"params":…,"deadlineMs":…}` with members omitted when `nil`.
public func request(id: String? = nil, params: JSONValue? = nil, deadlineMs: Int? = nil, extra: [(String, JSONValue)] = []) -> [UInt8] {
    var members: [(String, JSONValue)] = [("v", 1)]
    if let id { members.append(("id", .string(id))) }
    if let params { members.append(("params", params)) }
    if let deadlineMs { members.append(("deadlineMs", .int(deadlineMs))) }
    members.append(contentsOf: extra)
    return JSONValue.object(JSONObject(members)).encoded()
}

/// Bytes of a UTF-8 string.
public func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A unique e-mail address for tests that register users.
public func uniqueEmail(_ tag: String) -> String {
    "\(tag)-\(UUID().uuidString.lowercased())@example.com"
}

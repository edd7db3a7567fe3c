internal import CZeroMQ

/// Library-wide facts and constants.
public enum ZMQ {
    /// The libzmq version linked at run time (`zmq_version`).
    public static var version: (major: Int32, minor: Int32, patch: Int32) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (major, minor, patch)
    }

    /// Whether libzmq was built with `capability` (`zmq_has`), e.g. `"curve"`, `"ipc"`, `"draft"`.
    public static func hasCapability(_ capability: String) -> Bool {
        zmq_has(capability) != 0
    }

    /// The fixed endpoint where libzmq looks for the ZAP (ZeroMQ RFC 27) authentication
    /// handler of a context. Bind a ``ZMQSocketType/rep`` socket here, in the same context as
    /// the server socket and before the server accepts connections.
    ///
    /// A request has the frames `version "1.0"`, `request id`, `domain`, `address`,
    /// `routing id`, `mechanism` (`"NULL"`, `"PLAIN"`, `"CURVE"`) and mechanism credentials
    /// (for CURVE: the client's 32-byte public key). The reply has `version "1.0"`,
    /// `request id`, `status code` (`"200"` allows, `"400"` denies), `status text`, `user id`
    /// and `metadata` (may be empty).
    public static let zapEndpoint = "inproc://zeromq.zap.01"
}

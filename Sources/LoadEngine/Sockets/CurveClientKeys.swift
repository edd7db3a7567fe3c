import ZeroMQ

/// What a load client needs to talk to a CURVE server: the server's public key and the client's
/// own key pair, all Z85.
public struct CurveClientKeys: Sendable, Hashable {
    /// The server's public key.
    public let serverPublicKey: String
    /// The client's key pair.
    public let client: ZMQCurveKeyPair

    /// Pairs the server's public key with the client's keys.
    public init(serverPublicKey: String, client: ZMQCurveKeyPair) {
        self.serverPublicKey = serverPublicKey
        self.client = client
    }
}

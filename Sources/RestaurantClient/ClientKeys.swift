import ZeroMQ

/// A client's CURVE key pair (Z85, 40 characters each), for the use-case endpoints of an svcd
/// started with `--client-keys FILE` whose FILE lists ``publicKey``.
public struct ClientKeys: Sendable, Hashable {
    /// The public key, as listed in svcd's client key file.
    public let publicKey: String
    /// The secret key; never sent anywhere.
    public let secretKey: String

    /// A pair from its two keys.
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` unless both are 40-character Z85 keys.
    public init(publicKey: String, secretKey: String) throws(RestaurantClientError) {
        guard ZMQCurve.isKey(publicKey), ZMQCurve.isKey(secretKey) else {
            throw .invalidArgument("a CURVE key is 40 Z85 characters")
        }
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// The pair in two key files, each holding one key on its first line (as `svcctl keygen`
    /// writes them).
    /// - Throws: ``RestaurantClientError/invalidArgument(_:)`` when a file cannot be read or holds
    ///   no key.
    public init(publicKeyFile: String, secretKeyFile: String) throws(RestaurantClientError) {
        try self.init(publicKey: try Self.readKey(publicKeyFile), secretKey: try Self.readKey(secretKeyFile))
    }

    private static func readKey(_ path: String) throws(RestaurantClientError) -> String {
        do {
            return try CurveKeyFile.key(at: path)
        } catch .unreadable(let reason) {
            throw .invalidArgument("cannot read the key file \(path): \(reason)")
        } catch {
            throw .invalidArgument("\(path) does not hold a 40-character Z85 key")
        }
    }
}

internal import CZeroMQ

/// A CURVE (Curve25519) long-term key pair, both keys as 40-character Z85 text.
public struct ZMQCurveKeyPair: Sendable, Hashable {
    /// The public key, 40 Z85 characters (32 bytes).
    public let publicKey: String
    /// The secret key, 40 Z85 characters (32 bytes). Keep it out of logs.
    public let secretKey: String

    /// Pairs two existing Z85 keys (not validated; see ``ZMQCurve/publicKey(fromSecret:)``).
    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Generates a fresh key pair (`zmq_curve_keypair`).
    /// - Throws: ``ZMQError/notSupported`` if libzmq was built without CURVE.
    public static func generate() throws(ZMQError) -> ZMQCurveKeyPair {
        var publicBuffer = [UInt8](repeating: 0, count: ZMQCurve.z85KeyLength + 1)
        var secretBuffer = [UInt8](repeating: 0, count: ZMQCurve.z85KeyLength + 1)
        defer { wipe(&secretBuffer) }
        let rc = publicBuffer.withUnsafeMutableBufferPointer { publicPointer in
            secretBuffer.withUnsafeMutableBufferPointer { secretPointer in
                publicPointer.withMemoryRebound(to: CChar.self) { publicChars in
                    secretPointer.withMemoryRebound(to: CChar.self) { secretChars in
                        zmq_curve_keypair(publicChars.baseAddress, secretChars.baseAddress)
                    }
                }
            }
        }
        try check(rc)
        return ZMQCurveKeyPair(
            publicKey: String(decoding: publicBuffer.prefix(ZMQCurve.z85KeyLength), as: UTF8.self),
            secretKey: String(decoding: secretBuffer.prefix(ZMQCurve.z85KeyLength), as: UTF8.self)
        )
    }
}

/// CURVE helpers.
public enum ZMQCurve {
    /// Length of a binary CURVE key in bytes.
    public static let keyLength = 32
    /// Length of a Z85-encoded CURVE key in characters.
    public static let z85KeyLength = 40

    /// Derives the public key from a secret key (`zmq_curve_public`); both Z85, 40 characters.
    /// - Throws: ``ZMQError/invalid`` for a malformed secret key; ``ZMQError/notSupported``
    ///   if libzmq was built without CURVE.
    public static func publicKey(fromSecret secretKey: String) throws(ZMQError) -> String {
        _ = try decodeKey(secretKey)
        var publicBuffer = [UInt8](repeating: 0, count: z85KeyLength + 1)
        var secretBuffer = Array(secretKey.utf8) + [0]
        defer { wipe(&secretBuffer) }
        let rc = publicBuffer.withUnsafeMutableBufferPointer { publicPointer in
            secretBuffer.withUnsafeBufferPointer { secretPointer in
                publicPointer.withMemoryRebound(to: CChar.self) { publicChars in
                    secretPointer.withMemoryRebound(to: CChar.self) { secretChars in
                        zmq_curve_public(publicChars.baseAddress, secretChars.baseAddress)
                    }
                }
            }
        }
        try check(rc)
        return String(decoding: publicBuffer.prefix(z85KeyLength), as: UTF8.self)
    }

    /// Whether `z85` is a CURVE key: 40 Z85 characters decoding to 32 bytes.
    public static func isKey(_ z85: String) -> Bool {
        (try? decodeKey(z85)) != nil
    }

    /// Decodes a 40-character Z85 key to 32 bytes, or throws ``ZMQError/invalid``.
    static func decodeKey(_ z85: String) throws(ZMQError) -> [UInt8] {
        guard z85.utf8.count == z85KeyLength, let key = Z85.decode(z85), key.count == keyLength else {
            throw ZMQError.invalid
        }
        return key
    }
}

/// Z85 (ZeroMQ RFC 32) text encoding of binary data, as used for CURVE keys.
public enum Z85 {
    /// Encodes `bytes` (`zmq_z85_encode`). Returns `nil` unless the length is a multiple of 4.
    /// The result is 5/4 as long as the input.
    public static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count % 4 == 0 else { return nil }
        if bytes.isEmpty { return "" }
        let length = bytes.count / 4 * 5
        var text = [UInt8](repeating: 0, count: length + 1)
        let encoded = text.withUnsafeMutableBufferPointer { textPointer in
            textPointer.withMemoryRebound(to: CChar.self) { chars in
                bytes.withUnsafeBufferPointer { data in
                    zmq_z85_encode(chars.baseAddress, data.baseAddress, data.count) != nil
                }
            }
        }
        guard encoded else { return nil }
        return String(decoding: text.prefix(length), as: UTF8.self)
    }

    /// Decodes Z85 `text` (`zmq_z85_decode`). Returns `nil` unless the length is a multiple
    /// of 5 and every character is in the Z85 alphabet. The result is 4/5 as long as the input.
    public static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)
        guard chars.count % 5 == 0, !chars.contains(0) else { return nil }
        if chars.isEmpty { return [] }
        let length = chars.count / 5 * 4
        chars.append(0)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            let result = chars.withUnsafeBufferPointer { textPointer in
                textPointer.withMemoryRebound(to: CChar.self) { cString in
                    zmq_z85_decode(buffer.baseAddress, cString.baseAddress)
                }
            }
            failed = result == nil
            count = failed ? 0 : length
        }
        return failed ? nil : bytes
    }
}

/// Overwrites a buffer that held secret material before it is freed.
private func wipe(_ buffer: inout [UInt8]) {
    for index in buffer.indices { buffer[index] = 0 }
}

import ZeroMQ

/// One request of libzmq to a ZAP handler (RFC 27), as the ``ZAPAuthenticator`` reads it, and
/// the reply that admits or refuses it.
struct ZAPRequest {
    /// Echoed in the reply.
    let requestId: [UInt8]
    /// The socket's ZAP domain (`ZMQ_ZAP_DOMAIN`; empty when it has none).
    let domain: String
    /// The peer's address (its IP, as libzmq reports it).
    let address: String
    /// `CURVE`, `NULL`, `PLAIN`… (`?` when the request is too short to say).
    let mechanism: String
    /// The client's public key (Z85) for CURVE.
    let clientKey: String?

    /// Reads `frames`: `[version, request id, domain, address, identity, mechanism, credentials…]`.
    init(_ frames: [[UInt8]]) {
        requestId = frames.count > 1 ? frames[1] : []
        domain = frames.count > 2 ? String(decoding: frames[2], as: UTF8.self) : ""
        address = frames.count > 3 ? String(decoding: frames[3], as: UTF8.self) : "?"
        mechanism = frames.count > 5 ? String(decoding: frames[5], as: UTF8.self) : "?"
        clientKey = mechanism == "CURVE" && frames.count > 6 ? Z85.encode(frames[6]) : nil
    }

    /// The reply: `200` with the client key as user id when `allowed`, else `400` with `refusal`.
    func reply(allowed: Bool, refusal: String) -> [[UInt8]] {
        guard allowed, let clientKey else {
            return [Array("1.0".utf8), requestId, Array("400".utf8), Array(refusal.utf8), [], []]
        }
        return [Array("1.0".utf8), requestId, Array("200".utf8), Array("OK".utf8), Array(clientKey.utf8), []]
    }
}

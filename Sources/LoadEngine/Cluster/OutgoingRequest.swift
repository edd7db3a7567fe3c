import WireContract

/// A request as a load thread hands it to an ``InstanceLink``: its parts, written with
/// ``WireEnvelope``'s layout straight into what the link sends (no envelope built first).
struct OutgoingRequest {
    /// The use case it goes to, and its place in `UseCaseName.allCases` (``StressRequest/useCaseIndex``).
    let useCase: UseCaseName
    let useCaseIndex: Int
    /// The request's id (decimal on the wire, see ``PacedClient/requestId(client:number:)``).
    let id: UInt64
    /// The params' JSON text.
    let params: [UInt8]
    /// For a write, the start of its idempotency key, which ends with `keyNumber` in decimal.
    let keyPrefix: String?
    let keyNumber: UInt64

    /// The envelope's size in bytes.
    var byteCount: Int {
        WireEnvelope.requestByteCount(id: id, params: params, keyPrefix: keyPrefix, keyNumber: keyNumber)
    }

    /// Appends the envelope to `bytes`.
    func append(to bytes: inout [UInt8]) {
        WireEnvelope.appendRequest(id: id, params: params, keyPrefix: keyPrefix, keyNumber: keyNumber, to: &bytes)
    }

    /// The envelope's bytes.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        append(to: &bytes)
        return bytes
    }
}

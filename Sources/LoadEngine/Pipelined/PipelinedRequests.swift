import WireContract

/// What a ``PipelinedClient`` sends: the `params` JSON text of each request. The envelope around
/// it is the engine's, with the slot number as the id.
public enum PipelinedRequests: Sendable {
    /// Every request of a slot has the same params: its body is made once, before the run, so
    /// sending costs no formatting.
    case samePerSlot(@Sendable (_ slot: Int) -> String)
    /// Each request has its own params, made before it is sent, from its slot and `sequence`
    /// (this client's requests counted from 0).
    case each(@Sendable (_ slot: Int, _ sequence: Int) -> String)

    /// The body of the request with `params`, sent on `slot`.
    static func body(slot: Int, params: String) -> [UInt8] {
        WireEnvelope.requestBytes(id: String(slot), paramsJSON: params)
    }
}

/// Why a ``ZMTPConnection`` cannot be set up or has ended: refused, closed by the peer, a
/// handshake the peer does not accept, or bytes that break the protocol. The connection is of no
/// further use.
struct ZMTPFailure: Error, CustomStringConvertible {
    /// What happened, for a person.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

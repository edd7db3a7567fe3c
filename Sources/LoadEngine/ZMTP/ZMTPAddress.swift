/// A `tcp://HOST:PORT` address as libzmq's `zmq_connect` takes it (HOST a name, an IPv4 address
/// or a bracketed IPv6 one), for a ``ZMTPConnection``. Other transports and libzmq's extended
/// forms (a source address before `;`) are not taken: such a run uses libzmq.
struct ZMTPAddress: Equatable {
    /// The host name or address, without brackets.
    let host: String
    let port: UInt16

    /// `nil` when `address` is not a plain `tcp://HOST:PORT`.
    init?(_ address: String) {
        guard address.hasPrefix("tcp://"), !address.contains(";") else { return nil }
        let rest = address.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, host != "*" else { return nil }
        self.host = String(host)
        self.port = port
    }
}

import ZeroMQ

extension ZMQContext {
    /// A DEALER of a load client, connected to `address`: linger 0 (a load client never waits
    /// to deliver what is left when it stops), a CURVE client with `curve`, the given send
    /// high-water mark and receive timeout. `prepare` runs just before it connects (to start a
    /// monitor, so no event is missed). On failure the socket is closed again.
    func makeLoadDealer(
        connectingTo address: String, curve: CurveClientKeys?, sendHighWaterMark: Int32? = nil,
        receiveTimeoutMilliseconds: Int32? = nil, prepare: (ZMQSocket) throws(ZMQError) -> Void = { _ in }
    ) throws(ZMQError) -> ZMQSocket {
        let socket = try makeSocket(.dealer)
        do throws(ZMQError) {
            try socket.setLinger(0)
            if let sendHighWaterMark { try socket.setSendHighWaterMark(sendHighWaterMark) }
            if let receiveTimeoutMilliseconds { try socket.setReceiveTimeout(receiveTimeoutMilliseconds) }
            if let curve {
                try socket.setCurveClient(serverKey: curve.serverPublicKey, publicKey: curve.client.publicKey, secretKey: curve.client.secretKey)
            }
            try prepare(socket)
            try socket.connect(address)
            return socket
        } catch {
            socket.close()
            throw error
        }
    }
}

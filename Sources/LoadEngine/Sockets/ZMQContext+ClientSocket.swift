import ZeroMQ

extension ZMQContext {
    /// A client socket of the load engine (a DEALER of a load client, or the REQ of a
    /// ``LockstepCaller``), connected to `address`: linger 0 (a client never waits to deliver
    /// what is left when it stops), a CURVE client with `curve`, and the given send high-water
    /// mark and timeouts. `prepare` runs just before it connects (to start a monitor, so no event
    /// is missed). On failure the socket is closed again.
    public func makeClientSocket(
        _ type: ZMQSocketType = .dealer, connectingTo address: String, curve: CurveClientKeys?, sendHighWaterMark: Int32? = nil,
        receiveTimeoutMilliseconds: Int32? = nil, sendTimeoutMilliseconds: Int32? = nil, prepare: (ZMQSocket) throws(ZMQError) -> Void = { _ in }
    ) throws(ZMQError) -> ZMQSocket {
        let socket = try makeSocket(type)
        do throws(ZMQError) {
            try socket.setLinger(0)
            if let sendHighWaterMark { try socket.setSendHighWaterMark(sendHighWaterMark) }
            if let receiveTimeoutMilliseconds { try socket.setReceiveTimeout(receiveTimeoutMilliseconds) }
            if let sendTimeoutMilliseconds { try socket.setSendTimeout(sendTimeoutMilliseconds) }
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

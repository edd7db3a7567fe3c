import ZeroMQ

extension ZMQSocket {
    /// Blocking receive of the next message into `frames`, retried when a signal interrupts it;
    /// `false` when the receive timeout expired.
    ///
    /// A function of its own on purpose: Swift 6.3.1 crashes or hangs in the mandatory SIL pass
    /// MandatoryAllocBoxToStack (StackNesting::fixNesting) when a loop holds
    /// `let x: T?; do throws(E) { x = try … } catch .someCase { continue }`.
    func receiveReply(into frames: inout [[UInt8]]) throws(ZMQError) -> Bool {
        while true {
            do throws(ZMQError) {
                return try receiveMultipart(into: &frames) != nil
            } catch .interrupted {
                continue
            }
        }
    }
}

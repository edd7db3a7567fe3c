/// What a ZMTP peer sent, as ``ZMTPFrameReader`` assembles it: a whole message (its frames in
/// order) or a command (its body: the name's length, the name, then its data).
enum ZMTPInput: Equatable {
    case message([[UInt8]])
    case command([UInt8])

    /// The command's name (`READY`, `PING`, `ERROR`…), `nil` for a message or a malformed command.
    var commandName: String? {
        guard case .command(let body) = self, let length = body.first, body.count > Int(length) else { return nil }
        return String(decoding: body[1...Int(length)], as: UTF8.self)
    }

    /// A command's body (empty for a message).
    var commandBody: [UInt8] {
        guard case .command(let body) = self else { return [] }
        return body
    }
}

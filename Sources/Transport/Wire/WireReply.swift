import WireJSON

/// Encodes reply bodies of wire protocol v1.
public enum WireReply {
    /// `{"v":1,"id":…,"ok":true,"result":…}` with the result written by `result`.
    public static func success(id: String?, result: some WireEncodable) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writeHeader(id: id, ok: true, into: &writer)
        writer.key("result")
        result.write(to: &writer)
        writer.endObject()
        return writer.finish()
    }

    /// `{"v":1,"id":…,"ok":false,"error":{"code":…,"message":…}}`.
    public static func failure(id: String?, error: WireError) -> [UInt8] {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writeHeader(id: id, ok: false, into: &writer)
        writer.key("error")
        writer.beginObject()
        writer.key("code")
        writer.string(error.code.rawValue)
        writer.key("message")
        writer.string(error.message)
        writer.endObject()
        writer.endObject()
        return writer.finish()
    }

    private static func writeHeader(id: String?, ok: Bool, into writer: inout JSONWriter) {
        writer.key("v")
        writer.int(1)
        writer.key("id")
        if let id { writer.string(id) } else { writer.null() }
        writer.key("ok")
        writer.bool(ok)
    }
}

/// A value that can write itself as the `result` of a reply.
public protocol WireEncodable: Sendable {
    /// Writes the value as one JSON value.
    func write(to writer: inout JSONWriter)
}

import WireContract
import WireJSON

/// Encodes reply bodies of wire protocol v1.
public enum WireReply {
    /// `{"v":1,"id":…,"ok":true,"result":…}` with the result written by `result`.
    public static func success(id: String?, result: consuming some WireEncodable) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        return success(id: id, result: result, using: &writer)
    }

    /// As ``success(id:result:)``, encoded in `writer` (reset first), whose buffer a caller that
    /// encodes reply after reply keeps, so only the returned bytes are allocated.
    public static func success(id: String?, result: consuming some WireEncodable, using writer: inout JSONWriter) -> [UInt8] {
        writer.reset()
        writer.beginObject()
        writeHeader(id: id, ok: true, into: &writer)
        writer.key(literal: WireEnvelope.Key.result.literal)
        result.write(to: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// `{"v":1,"id":…,"ok":false,"error":{"code":…,"message":…}}`, the error adding `firstSeq`
    /// and `outcome` when the error has them.
    public static func failure(id: String?, error: WireError) -> [UInt8] {
        var writer = JSONWriter(capacity: 160)
        return failure(id: id, error: error, using: &writer)
    }

    /// As ``failure(id:error:)``, encoded in `writer` (reset first); see
    /// ``success(id:result:using:)``.
    public static func failure(id: String?, error: WireError, using writer: inout JSONWriter) -> [UInt8] {
        writer.reset()
        writer.beginObject()
        writeHeader(id: id, ok: false, into: &writer)
        writer.key(literal: WireEnvelope.Key.error.literal)
        writer.beginObject()
        writer.key(literal: WireEnvelope.Key.code.literal)
        writer.string(error.code.rawValue)
        writer.key(literal: WireEnvelope.Key.message.literal)
        writer.string(error.message)
        if let firstSeq = error.firstSeq {
            writer.key(literal: WireEvent.Result.firstSeq.literal)
            writer.int(Int(firstSeq))
        }
        if let outcome = error.outcome {
            writer.key(literal: WireEnvelope.Key.outcome.literal)
            writer.string(outcome.rawValue)
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    private static func writeHeader(id: String?, ok: Bool, into writer: inout JSONWriter) {
        writer.key(literal: WireEnvelope.Key.version.literal)
        writer.int(WireEnvelope.version)
        writer.key(literal: WireEnvelope.Key.id.literal)
        if let id { writer.string(id) } else { writer.null() }
        writer.key(literal: WireEnvelope.Key.ok.literal)
        writer.bool(ok)
    }
}

/// A value that can write itself as the `result` of a reply.
public protocol WireEncodable: Sendable {
    /// Writes the value as one JSON value (consuming it, so payloads move into the writer
    /// without copies).
    consuming func write(to writer: inout JSONWriter)
}

/// A request's W3C Trace Context (level 1) as svcd reads it from the envelope's `traceparent`:
/// the trace the caller's request belongs to, the caller's span and the trace flags. An invalid
/// `traceparent` is ignored (the request then starts a trace of its own), never refused.
///
/// svcd reads it from a request and writes it into the events a write appends; clients
/// (RestaurantClient, `svcctl call --traceparent`) check and send it.
public struct TraceContext: Sendable, Hashable {
    /// The trace id's first 8 bytes.
    public let traceIdHigh: UInt64
    /// The trace id's last 8 bytes.
    public let traceIdLow: UInt64
    /// The caller's span: the parent of svcd's span for the request.
    public let parentSpanId: UInt64
    /// The trace flags (bit 0: sampled).
    public let flags: UInt8

    /// The longest `tracestate` kept (W3C: 32 members of at most 256 characters; 512 is what
    /// implementations are asked to propagate at least).
    public static let maximumTracestateLength = 512

    /// A context of its parts.
    public init(traceIdHigh: UInt64, traceIdLow: UInt64, parentSpanId: UInt64, flags: UInt8) {
        self.traceIdHigh = traceIdHigh
        self.traceIdLow = traceIdLow
        self.parentSpanId = parentSpanId
        self.flags = flags
    }

    /// The context of a `traceparent` value, `nil` when it is not valid: `VV-T-P-FF` with a
    /// version of two lower-case hex digits other than `ff`, a trace id of 32 and a parent id of
    /// 16 lower-case hex digits, neither all zeros, and flags of two; version `00` is exactly 55
    /// characters, a later version may go on after a `-`.
    public static func parse(traceparent text: String) -> TraceContext? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash,
              let version = hex(bytes[0..<2]), version != 0xFF,
              version != 0 || bytes.count == 55, bytes.count == 55 || bytes[55] == dash,
              let high = hex(bytes[3..<19]), let low = hex(bytes[19..<35]), high != 0 || low != 0,
              let parent = hex(bytes[36..<52]), parent != 0,
              let flags = hex(bytes[53..<55])
        else { return nil }
        return TraceContext(traceIdHigh: high, traceIdLow: low, parentSpanId: parent, flags: UInt8(flags))
    }

    /// The context as a `traceparent` value of version 00.
    public var traceparent: String {
        Self.traceparent(traceIdHigh: traceIdHigh, traceIdLow: traceIdLow, spanId: parentSpanId, flags: flags)
    }

    /// `00-<trace id>-<span id>-<flags>`, written in one buffer (a log line or an event per
    /// request makes one).
    public static func traceparent(traceIdHigh: UInt64, traceIdLow: UInt64, spanId: UInt64, flags: UInt8) -> String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            buffer[0] = UInt8(ascii: "0"); buffer[1] = UInt8(ascii: "0"); buffer[2] = dash
            writeHex(traceIdHigh, digits: 16, into: buffer, at: 3)
            writeHex(traceIdLow, digits: 16, into: buffer, at: 19)
            buffer[35] = dash
            writeHex(spanId, digits: 16, into: buffer, at: 36)
            buffer[52] = dash
            writeHex(UInt64(flags), digits: 2, into: buffer, at: 53)
            return 55
        }
    }

    /// The trace id as 32 lower-case hex digits.
    public var traceId: String { Self.hex(traceIdHigh) + Self.hex(traceIdLow) }

    /// `value` as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeHex(value, digits: 16, into: buffer, at: 0)
            return 16
        }
    }

    /// Writes the last `digits` hex digits of `value` (lower case) at `offset` of `buffer`.
    private static func writeHex(_ value: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var rest = value
        for index in stride(from: offset + digits - 1, through: offset, by: -1) {
            let digit = UInt8(truncatingIfNeeded: rest & 0xF)
            buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            rest >>= 4
        }
    }

    private static let dash = UInt8(ascii: "-")

    /// The value of up to 16 lower-case hex digits; `nil` for any other byte.
    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

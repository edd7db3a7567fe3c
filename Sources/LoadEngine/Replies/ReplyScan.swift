import WireContract

/// The fast reply check of the pipelined client: which request a reply answers and whether it
/// succeeded, read from its first bytes instead of parsing it. A request's id is a number, and
/// every reply the service sends starts like every request, `{"v":1,"id":"`
/// (``WireEnvelope/requestPrefix``), with the id next; a success continues with `,"ok":true`
/// right after the id (``WireEnvelope/successAfterId``), then `,"result":` and the result
/// (``WireEnvelope/resultAfterSuccess``).
struct ReplyScan: Sendable {
    private let prefix = WireEnvelope.requestPrefix
    private let success = WireEnvelope.successAfterId
    private let result = WireEnvelope.resultAfterSuccess

    /// The number in the reply's id and the index just past the id's closing quote; `nil` when
    /// `body` does not start with `{"v":1,"id":"<digits>"`.
    @inline(__always)
    func idNumber(in body: [UInt8]) -> (number: Int, end: Int)? {
        body.withUnsafeBytes { idNumber(in: $0) }
    }

    /// Whether `,"ok":true` follows at `end` (from ``idNumber(in:)``).
    @inline(__always)
    func succeeds(_ body: [UInt8], after end: Int) -> Bool {
        body.withUnsafeBytes { succeeds($0, after: end) }
    }

    /// The number in the reply's id and the index just past the id's closing quote; `nil` when
    /// `body` does not start with `{"v":1,"id":"<digits>"`.
    @inline(__always)
    func idNumber(in body: UnsafeRawBufferPointer) -> (number: Int, end: Int)? {
        let count = body.count
        guard count > prefix.count + 1, Self.matches(prefix, in: body, at: 0) else { return nil }
        var position = prefix.count
        var number = 0
        var digits = 0
        // At most 18 digits: every such number fits an Int.
        while position < count, body[position] >= UInt8(ascii: "0"), body[position] <= UInt8(ascii: "9"), digits < 18 {
            number = number * 10 + Int(body[position] &- UInt8(ascii: "0"))
            position += 1
            digits += 1
        }
        guard digits > 0, position < count, body[position] == UInt8(ascii: "\"") else { return nil }
        return (number, position + 1)
    }

    /// Whether `,"ok":true` follows at `end` (from ``idNumber(in:)``).
    @inline(__always)
    func succeeds(_ body: UnsafeRawBufferPointer, after end: Int) -> Bool {
        Self.matches(success, in: body, at: end)
    }

    /// Where the result starts in a success reply: `end` is from ``idNumber(in:)`` and
    /// ``succeeds(_:after:)`` held there; `nil` when `,"result":` does not follow.
    @inline(__always)
    func resultStart(_ body: UnsafeRawBufferPointer, afterSuccessAt end: Int) -> Int? {
        let start = end + success.count
        // The result's first byte must follow too.
        guard body.count - start > result.count, Self.matches(result, in: body, at: start) else { return nil }
        return start + result.count
    }

    /// Whether `body` holds `literal` at `offset`.
    @inline(__always)
    private static func matches(_ literal: [UInt8], in body: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard body.count - offset >= literal.count else { return false }
        for index in literal.indices where body[offset + index] != literal[index] {
            return false
        }
        return true
    }
}

/// A peer's routing id, the first frame a ROUTER receives, held for the reply without an
/// allocation of its own when it is short: libzmq gives a peer a 5-byte id unless the peer sets
/// one (up to 255 bytes), so ids of up to 16 bytes are kept inline and only longer ones in an
/// array. The socket thread receives every message into the same reused frames, which keeping a
/// reference to the first one would make it reallocate for each request.
struct RoutingID: Sendable, Equatable {
    /// The longest id kept inline.
    static let inlineCapacity = 16

    private var inline: (UInt64, UInt64) = (0, 0)
    private let count: Int
    private let spilled: [UInt8]?

    /// The id whose bytes are `bytes`.
    init(_ bytes: [UInt8]) {
        count = bytes.count
        guard bytes.count <= Self.inlineCapacity else {
            spilled = bytes
            return
        }
        spilled = nil
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &inline) { $0.copyMemory(from: source) }
        }
    }

    /// Calls `body` with the id's bytes.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let spilled { return spilled.withUnsafeBytes(body) }
        return Swift.withUnsafeBytes(of: inline) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// The id's bytes, as an array.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    static func == (lhs: RoutingID, rhs: RoutingID) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }
}

/// An opaque continuation token for a listing. Clients pass it back unchanged; its content (the
/// sort key of the last row returned) is private to the service.
public struct PageCursor: Sendable, Hashable, CustomStringConvertible {
    /// Which listing a cursor belongs to, so a cursor of one listing is refused by another.
    public enum Kind: String, Sendable {
        /// ListRestaurants.
        case restaurants = "R"
        /// GetReviews.
        case reviews = "V"
        /// ListOrders.
        case orders = "O"
        /// LoadFeed.
        case feed = "F"
    }

    /// The longest token accepted from a client.
    public static let maximumTokenLength = 1024

    /// The token as sent on the wire.
    public let token: String

    /// Wraps a token received from a client; it is checked when decoded.
    public init(token: String) {
        self.token = token
    }

    /// Encodes a sort key: kind and fields joined by U+001F, as lower-case hex of the UTF-8.
    init(kind: Kind, fields: [String]) {
        let plain = ([kind.rawValue] + fields).joined(separator: "\u{1F}")
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(plain.utf8.count * 2)
        for byte in plain.utf8 {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        self.token = String(decoding: hex, as: UTF8.self)
    }

    /// The token.
    public var description: String { token }

    /// Decodes the fields of a cursor of `kind`; any other token is invalid input on `field`.
    func fields(of kind: Kind, count: Int, field: String = "cursor") throws(DomainError) -> [String] {
        let invalid = DomainError.invalidInput(field: field, reason: "is not a cursor returned by this listing")
        let hex = Array(token.utf8)
        guard hex.count <= PageCursor.maximumTokenLength, hex.count % 2 == 0 else { throw invalid }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = 0
        while index < hex.count {
            guard let high = PageCursor.nibble(hex[index]), let low = PageCursor.nibble(hex[index + 1]) else { throw invalid }
            bytes.append(high << 4 | low)
            index += 2
        }
        guard let plain = String(validating: bytes, as: UTF8.self) else { throw invalid }
        let parts = plain.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == count + 1, parts[0] == kind.rawValue else { throw invalid }
        return Array(parts.dropFirst())
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

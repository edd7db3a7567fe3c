import Domain

/// Restaurants by every one- and two-scalar piece of their search keys (lowercased, canonically
/// decomposed name and cuisine): the candidates of searches too short for the trigram index,
/// found without walking every restaurant. Names and cuisines never change, so an entry is
/// added once and never updated. About 40 four-byte postings per restaurant.
struct ShortTextIndex {
    private var ids: [RestaurantID] = []
    private var postings: [UInt64: [Int32]] = [:]

    /// Indexes a restaurant not indexed before, by its `name_key` and `cuisine_key`.
    mutating func add(_ id: RestaurantID, keys: [String]) {
        let ordinal = Int32(ids.count)
        ids.append(id)
        var pieces: [UInt64] = []
        for key in keys {
            var previous: UInt32?
            for scalar in key.unicodeScalars {
                pieces.append(Self.piece(scalar.value))
                if let previous { pieces.append(Self.piece(previous, scalar.value)) }
                previous = scalar.value
            }
        }
        pieces.sort()
        var last: UInt64?
        for piece in pieces where piece != last {
            postings[piece, default: []].append(ordinal)
            last = piece
        }
    }

    /// How many restaurants contain `key` (a search key of 1 or 2 scalars); `nil` for other keys.
    func count(containing key: String) -> Int? {
        Self.piece(of: key).map { postings[$0]?.count ?? 0 }
    }

    /// The restaurants whose name or cuisine key contains `key` (1 or 2 scalars).
    func restaurants(containing key: String) -> [RestaurantID] {
        guard let piece = Self.piece(of: key) else { return [] }
        return (postings[piece] ?? []).map { ids[Int($0)] }
    }

    // A piece packed in 64 bits: scalars take 21 bits each; bit 63 marks a two-scalar piece.
    private static func piece(_ scalar: UInt32) -> UInt64 { UInt64(scalar) }
    private static func piece(_ first: UInt32, _ second: UInt32) -> UInt64 {
        1 << 63 | UInt64(first) << 21 | UInt64(second)
    }
    private static func piece(of key: String) -> UInt64? {
        var scalars = key.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return nil }
        guard let second = scalars.next() else { return piece(first.value) }
        guard scalars.next() == nil else { return nil }
        return piece(first.value, second.value)
    }
}

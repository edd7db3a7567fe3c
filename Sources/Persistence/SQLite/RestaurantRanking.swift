import Domain

/// The rank keys of the listed restaurants in listing order (``RestaurantRankKey/precedes(_:)``:
/// rating descending, then name and id byte-wise — the order of ``RestaurantListing``'s SQL), so
/// a listing without a text filter walks memory instead of querying.
///
/// Sorted chunks of at most ``chunkCapacity`` keys: adding or removing a key moves the keys of
/// one chunk only, so a rating change costs about the same with a hundred restaurants or a
/// hundred thousand, and a page starts after two binary searches.
struct RestaurantRanking {
    /// The most keys a chunk holds before it is split in two.
    static let chunkCapacity = 256

    /// Non-empty, each sorted, each chunk's last key before the next chunk's first.
    private var chunks: [[RestaurantRankKey]] = []

    /// How many keys it holds.
    private(set) var count = 0

    /// A ranking of `keys`, in any order; keys already in listing order (as the rank index reads
    /// them) cost one pass to check instead of a sort.
    init(_ keys: [RestaurantRankKey] = []) {
        let inOrder = keys.indices.dropFirst().allSatisfy { keys[$0 - 1].precedes(keys[$0]) }
        let sorted = inOrder ? keys : keys.sorted { $0.precedes($1) }
        count = sorted.count
        var start = 0
        while start < sorted.count {
            let end = min(start + Self.chunkCapacity / 2, sorted.count)
            chunks.append(Array(sorted[start..<end]))
            start = end
        }
    }

    /// Adds `key` at its place.
    mutating func insert(_ key: RestaurantRankKey) {
        guard !chunks.isEmpty else {
            chunks = [[key]]
            count = 1
            return
        }
        // The first chunk whose last key does not precede `key`, or the last chunk.
        let chunk = min(firstChunk { !$0.precedes(key) }, chunks.count - 1)
        let index = Self.firstIndex(in: chunks[chunk]) { !$0.precedes(key) }
        chunks[chunk].insert(key, at: index)
        count += 1
        if chunks[chunk].count > Self.chunkCapacity {
            let upper = Array(chunks[chunk][(Self.chunkCapacity / 2)...])
            chunks[chunk].removeSubrange((Self.chunkCapacity / 2)...)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    /// Removes `key` (equal rating, and name and id byte for byte); returns whether it was held.
    @discardableResult
    mutating func remove(_ key: RestaurantRankKey) -> Bool {
        let chunk = firstChunk { !$0.precedes(key) }
        guard chunk < chunks.count else { return false }
        let index = Self.firstIndex(in: chunks[chunk]) { !$0.precedes(key) }
        guard index < chunks[chunk].count, !key.precedes(chunks[chunk][index]) else { return false }
        chunks[chunk].remove(at: index)
        count -= 1
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        return true
    }

    /// Calls `body` with each key strictly after `after` (every key when `nil`), in order, until
    /// it returns `false`.
    func forEach(after: RestaurantRankKey?, _ body: (RestaurantRankKey) -> Bool) {
        var chunk = 0
        var index = 0
        if let after {
            chunk = firstChunk { after.precedes($0) }
            guard chunk < chunks.count else { return }
            index = Self.firstIndex(in: chunks[chunk]) { after.precedes($0) }
        }
        while chunk < chunks.count {
            let keys = chunks[chunk]
            while index < keys.count {
                guard body(keys[index]) else { return }
                index += 1
            }
            chunk += 1
            index = 0
        }
    }

    /// The first chunk whose last key satisfies `isAtOrPast` (monotonic: false, then true), or
    /// `chunks.count`.
    private func firstChunk(where isAtOrPast: (RestaurantRankKey) -> Bool) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(chunks[middle][chunks[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The first index of `keys` whose key satisfies `isAtOrPast` (monotonic), or `keys.count`.
    private static func firstIndex(in keys: [RestaurantRankKey], where isAtOrPast: (RestaurantRankKey) -> Bool) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(keys[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

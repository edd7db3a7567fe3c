import Domain

/// An entity the in-memory stores keep in newest-first lists (creation time, then id, descending).
protocol NewestFirstListed {
    /// Where the entity stands in such a list.
    var recencyKey: RecencyKey<Self> { get }
}

extension Review: NewestFirstListed {
    var recencyKey: RecencyKey<Review> { RecencyKey(createdAt: createdAt, id: id) }
}

extension Order: NewestFirstListed {
    var recencyKey: RecencyKey<Order> { RecencyKey(createdAt: createdAt, id: id) }
}

extension Restaurant: NewestFirstListed {
    var recencyKey: RecencyKey<Restaurant> { RecencyKey(createdAt: createdAt, id: id) }
}

extension Array where Element: NewestFirstListed {
    /// Inserts `element` where it belongs in this newest-first list.
    mutating func insertNewestFirst(_ element: Element) {
        let key = element.recencyKey
        insert(element, at: firstIndex { key.precedes($0.recencyKey) } ?? endIndex)
    }

    /// Up to `limit` elements of this newest-first list, from the first one listed after `after`
    /// (from the start without it).
    func page(after: RecencyKey<Element>?, limit: Int) -> [Element] {
        guard let after else { return Array(prefix(limit)) }
        let start = firstIndex { after.precedes($0.recencyKey) } ?? endIndex
        return Array(self[start...].prefix(limit))
    }
}

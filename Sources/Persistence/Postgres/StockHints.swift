import Domain
import Synchronization

/// The stock each menu item was last seen with by this instance (read by id, restocked, ordered
/// or returned), so that an order can be placed in one statement that expects it
/// (``PostgresOrderRepository``). A hint decides nothing: the statement takes the stock only
/// when every item, under its row lock, still has exactly the stock expected, and an order whose
/// hints are missing or stale goes the long way, a transaction that reads the stock first.
///
/// Bounded: at ``capacity`` distinct items it forgets them all and starts again, which costs the
/// next order of each forgotten item the long way once.
final class StockHints: Sendable {
    /// Items remembered at most.
    let capacity: Int
    private let seen = Mutex<[String: Int]>([:])
    private let met = Atomic<Int>(0), missed = Atomic<Int>(0)

    /// Hints for at most `capacity` items.
    init(capacity: Int) {
        precondition(capacity > 0, "stock hints need room for one item")
        self.capacity = capacity
    }

    /// Remembers that item `id` had `stock`.
    func saw(_ id: String, stock: Int) {
        saw(CollectionOfOne((id, stock)))
    }

    /// Remembers each item's stock, by item id.
    func saw(_ stock: [String: Int]) {
        saw(stock.lazy.map { ($0.key, $0.value) })
    }

    /// Remembers the stock each item has left.
    func saw(_ left: [ItemStock]) {
        saw(left.lazy.map { ($0.itemId.rawValue, $0.stock) })
    }

    /// Remembers each (item id, stock) pair, under one lock.
    func saw(_ stock: some Sequence<(String, Int)>) {
        let capacity = self.capacity
        seen.withLock { seen in
            for (id, stock) in stock {
                if seen.count >= capacity, seen[id] == nil { seen.removeAll(keepingCapacity: true) }
                seen[id] = stock
            }
        }
    }

    /// The stock last seen of each of `ids`, in their order; `nil` unless every one was seen.
    func expected(_ ids: [String]) -> [Int]? {
        seen.withLock { seen in
            var stock: [Int] = []
            stock.reserveCapacity(ids.count)
            for id in ids {
                guard let seen = seen[id] else { return nil }
                stock.append(seen)
            }
            return stock
        }
    }

    /// Counts an order that expected its items' stock: whether they had it.
    func noteExpectation(met: Bool) {
        if met {
            self.met.add(1, ordering: .relaxed)
        } else {
            missed.add(1, ordering: .relaxed)
        }
    }

    /// Orders that found their items' stock as expected, and orders that did not (for tests).
    var expectations: (met: Int, missed: Int) {
        (met.load(ordering: .relaxed), missed.load(ordering: .relaxed))
    }
}

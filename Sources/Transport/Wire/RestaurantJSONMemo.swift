import Domain
import Synchronization
import WireJSON

/// Each restaurant's members as JSON (its object without braces and without `isFavorite`),
/// written once per restaurant *value* and spliced into every reply that carries it: a
/// restaurant is read far more often than it changes, and writing one (numbers formatted,
/// strings escaped) was the largest part of answering GetRestaurant, twenty times over in a
/// listing. An entry is used only for a restaurant equal in every field to the one it was
/// written from, so a changed restaurant is written afresh and never answered stale.
///
/// Bounded: at most ``capacity`` restaurants, one entry making room for another when full. One
/// for the process (``shared``), behind a lock held only to look up or store an entry.
final class RestaurantJSONMemo: Sendable {
    /// The memo every reply uses.
    static let shared = RestaurantJSONMemo(capacity: 4_096)

    // A class: looking one up then takes one reference, not a copy of every field.
    private final class Entry: Sendable {
        let restaurant: Restaurant
        let members: [UInt8]

        init(restaurant: Restaurant, members: [UInt8]) {
            self.restaurant = restaurant
            self.members = members
        }

        /// The members, when written from a restaurant equal to `other` (compared in place).
        func members(for other: borrowing Restaurant) -> [UInt8]? {
            restaurant == other ? members : nil
        }
    }

    /// The most restaurants kept.
    let capacity: Int
    private let entries = Mutex<[RestaurantID: Entry]>([:])

    /// A memo of at most `capacity` restaurants (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The restaurants kept now.
    var count: Int { entries.withLock { $0.count } }

    /// Calls `body` with `restaurant`'s members as JSON, written now unless kept from before.
    func withMembers<Result>(of restaurant: Restaurant, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let kept = entries.withLock { $0[restaurant.id]?.members(for: restaurant) }
        let members = kept ?? remember(restaurant)
        return members.withUnsafeBytes(body)
    }

    private func remember(_ restaurant: Restaurant) -> [UInt8] {
        var writer = JSONWriter(capacity: 1_024)
        writer.beginObject()
        writer.restaurantMembers(restaurant)
        writer.endObject()
        let members = writer.withBytes { Array($0.dropFirst().dropLast()) }
        entries.withLock { entries in
            if entries.count >= capacity, entries[restaurant.id] == nil { entries.remove(at: entries.startIndex) }
            entries[restaurant.id] = Entry(restaurant: restaurant, members: members)
        }
        return members
    }
}

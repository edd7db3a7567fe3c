/// A typed identifier: the `Entity` parameter keeps a user id from being passed where a
/// restaurant id is expected, while the value stays a plain string on the wire and in storage.
public struct Identifier<Entity>: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an identifier's text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Byte-wise UTF-8 order, the same order a database's binary collation gives.
    public static func < (lhs: Identifier, rhs: Identifier) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// Identifies a ``User``.
public typealias UserID = Identifier<User>
/// Identifies a ``Restaurant``.
public typealias RestaurantID = Identifier<Restaurant>
/// Identifies a ``Review``.
public typealias ReviewID = Identifier<Review>
/// Identifies a ``MenuItem``.
public typealias MenuItemID = Identifier<MenuItem>
/// Identifies an ``Order``.
public typealias OrderID = Identifier<Order>

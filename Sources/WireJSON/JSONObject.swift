/// A JSON object: an ordered list of key/value members.
///
/// Members keep the order of the input and duplicates are kept as parsed. Lookup by key
/// scans linearly (objects on the wire are small) and returns the **last** member with
/// that key, so for duplicate keys the last one wins, as in most JSON parsers. Keys are
/// compared by their exact UTF-8 bytes (no Unicode normalisation), as RFC 8259 §8.3
/// recommends.
///
/// Equality and hashing are structural and order-sensitive: `{"a":1,"b":2}` and
/// `{"b":2,"a":1}` are different values. (String members compare with Swift `String`
/// equality.)
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key/value member of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order, duplicates included.
    public private(set) var members: [Member]

    /// Creates an empty object.
    public init() {
        members = []
    }

    /// Creates an object with these members, in this order (duplicates kept).
    public init(_ members: [(String, JSONValue)]) {
        self.members = members.map { Member(key: $0.0, value: $0.1) }
    }

    /// Creates an object with these members, in this order (duplicates kept).
    public init(members: [Member]) {
        self.members = members
    }

    /// Creates an object from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The index of the first member.
    public var startIndex: Int { 0 }

    /// The index just past the last member.
    public var endIndex: Int { members.count }

    /// The number of members, duplicates included.
    public var count: Int { members.count }

    /// The member at `position`.
    public subscript(position: Int) -> Member {
        members[position]
    }

    /// The keys in member order, duplicates included.
    public var keys: [String] {
        members.map(\.key)
    }

    /// The value of the **last** member with this key, or `nil` when there is none.
    ///
    /// Setting a value replaces the value of the last member with this key, or appends
    /// a member when there is none; setting `nil` removes every member with this key.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = lastIndex(ofKey: key) else { return nil }
            return members[index].value
        }
        set {
            if let newValue {
                if let index = lastIndex(ofKey: key) {
                    members[index].value = newValue
                } else {
                    members.append(Member(key: key, value: newValue))
                }
            } else {
                members.removeAll { keyEquals($0.key, key) }
            }
        }
    }

    /// Whether some member has this key.
    public func contains(key: String) -> Bool {
        lastIndex(ofKey: key) != nil
    }

    /// Appends a member, even if the key is already present.
    public mutating func append(key: String, value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// The index of the last member whose key has the same UTF-8 bytes as `key`.
    func lastIndex(ofKey key: String) -> Int? {
        var index = members.count - 1
        while index >= 0 {
            if keyEquals(members[index].key, key) { return index }
            index -= 1
        }
        return nil
    }
}

/// Byte-wise key comparison without allocating (both sides are native UTF-8 in practice).
@inline(__always)
func keyEquals(_ lhs: String, _ rhs: String) -> Bool {
    let lhsUTF8 = lhs.utf8
    let rhsUTF8 = rhs.utf8
    guard lhsUTF8.count == rhsUTF8.count else { return false }
    let fast = lhsUTF8.withContiguousStorageIfAvailable { lhsBytes in
        rhsUTF8.withContiguousStorageIfAvailable { rhsBytes in
            var i = 0
            let n = lhsBytes.count
            while i < n {
                if lhsBytes[i] != rhsBytes[i] { return false }
                i += 1
            }
            return true
        }
    }
    if let fast, let result = fast { return result }
    return lhsUTF8.elementsEqual(rhsUTF8)
}

/// Where an entity stands in a newest-first listing: creation time descending, then id descending.
public struct RecencyKey<Entity>: Sendable, Hashable {
    /// When the entity was created.
    public let createdAt: Timestamp
    /// The entity's id, breaking ties between equal times.
    public let id: Identifier<Entity>

    /// Creates a key from its parts.
    public init(createdAt: Timestamp, id: Identifier<Entity>) {
        self.createdAt = createdAt
        self.id = id
    }

    /// Whether `self` is listed before (is newer than) `other`.
    public func precedes(_ other: RecencyKey) -> Bool {
        createdAt != other.createdAt ? createdAt > other.createdAt : other.id < id
    }

    func cursor(_ kind: PageCursor.Kind) -> PageCursor {
        PageCursor(kind: kind, fields: [String(createdAt.millisecondsSinceEpoch), id.rawValue])
    }

    init(cursor: PageCursor, kind: PageCursor.Kind) throws(DomainError) {
        let fields = try cursor.fields(of: kind, count: 2)
        guard let millis = Int64(fields[0]) else {
            throw .invalidInput(field: "cursor", reason: "is not a cursor returned by this listing")
        }
        self.init(createdAt: Timestamp(millisecondsSinceEpoch: millis), id: Identifier(fields[1]))
    }
}

/// Makes unique identifiers for new entities. Production uses random ids; tests use sequences.
public protocol IdentifierGenerator: Sendable {
    /// A new identifier that no other entity has.
    func makeIdentifier() -> String
}

extension IdentifierGenerator {
    /// A new typed identifier.
    func make<Entity>(_ type: Entity.Type = Entity.self) -> Identifier<Entity> {
        Identifier(makeIdentifier())
    }
}

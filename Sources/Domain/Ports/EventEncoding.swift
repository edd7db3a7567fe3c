/// Encodes an event in the form its log keeps and its subscribers receive: the type's name and
/// the data. The transport supplies it (the wire's JSON), so neither the use cases nor the
/// stores depend on a wire format.
public protocol EventEncoding: Sendable {
    /// The event's type name and data.
    func encode(_ event: DomainEvent) -> EncodedEvent
}

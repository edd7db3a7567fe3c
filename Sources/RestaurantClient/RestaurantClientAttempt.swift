import WireContract
/// One send of a call's request, as reported to a ``RestaurantClient``'s attempt observer (for
/// metrics, logs and tests).
public struct RestaurantClientAttempt: Sendable, Hashable {
    /// The use case called.
    public var useCase: UseCaseName
    /// 0 for the call's first send, 1… for its resends.
    public var number: Int
    /// The instance sent to: an index into ``RestaurantClient/instances``.
    public var instance: Int
    /// The address sent to.
    public var address: String
    /// The envelope's `idempotencyKey` (the same on every attempt of one call), `nil` for reads.
    public var idempotencyKey: String?

    /// Creates a value (e.g. for test doubles); the client reports its attempts itself.
    public init(useCase: UseCaseName, number: Int, instance: Int, address: String, idempotencyKey: String?) {
        self.useCase = useCase
        self.number = number
        self.instance = instance
        self.address = address
        self.idempotencyKey = idempotencyKey
    }
}

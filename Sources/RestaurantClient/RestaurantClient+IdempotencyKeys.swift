import WireContract
extension RestaurantClient {
    /// The longest idempotency key the protocol accepts, in characters.
    public static let maxIdempotencyKeyLength = 128

    /// A new idempotency key: `ik-` and 128 bits from the system's random number generator as 32
    /// lower-case hex digits (35 characters). Store it with your own record of a write to retry
    /// that write after a restart of your application.
    public static func makeIdempotencyKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return "ik-" + hex(generator.next() as UInt64) + hex(generator.next() as UInt64)
    }

    /// The key a call's envelope carries: the caller's (checked), a new one for a write, none
    /// for a read.
    static func envelopeKey(for useCase: UseCaseName, given: String?) throws(RestaurantClientError) -> String? {
        if let given {
            guard (1...maxIdempotencyKeyLength).contains(given.count) else {
                throw .invalidArgument(
                    "idempotencyKey must be 1 to \(maxIdempotencyKeyLength) characters, got \(given.count)")
            }
            return given
        }
        return useCase.writes ? makeIdempotencyKey() : nil
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

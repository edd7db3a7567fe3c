import WireContract
import WireJSON

/// A stress request's params, written member by member straight to the JSON text that is sent
/// (no tree of values built and encoded per request).
struct StressParams: ~Copyable {
    private var writer = JSONWriter(capacity: 192)

    init() {
        writer.beginObject()
    }

    /// Adds member `key` with a string.
    mutating func add(_ key: WireKey, _ value: String) {
        writer.key(literal: key.literal)
        writer.string(value)
    }

    /// Adds member `key` with an integer.
    mutating func add(_ key: WireKey, _ value: Int) {
        writer.key(literal: key.literal)
        writer.int(value)
    }

    /// Adds member `key` with a number.
    mutating func add(_ key: WireKey, _ value: Double) {
        writer.key(literal: key.literal)
        writer.double(value)
    }

    /// Adds PlaceOrder's `items`: one `{itemId, quantity}` per line.
    mutating func addLines(_ lines: [(itemId: String, quantity: Int)]) {
        writer.key(literal: WireMember.items.literal)
        writer.beginArray()
        for line in lines {
            writer.beginObject()
            add(WireMember.itemId, line.itemId)
            add(WireMember.quantity, line.quantity)
            writer.endObject()
        }
        writer.endArray()
    }

    /// The request to `useCase` with these params.
    consuming func request(_ useCase: UseCaseName, effect: StressRequest.Effect) -> StressRequest {
        writer.endObject()
        return StressRequest(useCase: useCase, paramsJSON: writer.finish(), effect: effect)
    }
}

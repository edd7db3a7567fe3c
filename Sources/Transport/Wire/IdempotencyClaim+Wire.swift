import Domain
import WireContract
import WireJSON

extension IdempotencyClaim {
    /// The claim of a write request that carries `key`. The request it binds is the use case's
    /// name and its params as canonical JSON, so params spelled differently but equal as JSON
    /// values are the same request; the recorded result is the reply's `result` object, so a
    /// replay answers byte for byte what the first request was answered.
    init(key: String, useCase: UseCaseName, params: Params) {
        var request = Array(useCase.rawValue.utf8)
        request.append(UInt8(ascii: " "))
        request += JSONValue.object(params.object).canonicalEncoded()
        self.init(key: key, request: String(decoding: request, as: UTF8.self), encodeResult: IdempotencyClaim.encodeWireResult)
    }

    /// A write's result as the `result` object of its reply.
    private static let encodeWireResult: @Sendable (WriteResult) -> [UInt8] = { result in
        var writer = JSONWriter(capacity: 512)
        UseCaseResult(result).write(to: &writer)
        return writer.finish()
    }
}

extension UseCaseResult {
    /// The result of the write whose store recorded `result`: the same case its route returns.
    init(_ result: WriteResult) {
        switch result {
        case .user(let user): self = .user(user)
        case .restaurant(let restaurant): self = .restaurant(restaurant, isFavorite: nil)
        case .favoriteCount(let count): self = .favoriteCount(count)
        case .review(let review, let rating): self = .review(review, restaurantRating: rating)
        case .menuItem(let item): self = .item(item)
        case .order(let order): self = .order(order)
        }
    }
}

/// A `result` object recorded by an idempotency key's binding, replayed as it was recorded.
struct RecordedResult: WireEncodable {
    /// One JSON object, as ``IdempotencyClaim`` encoded it.
    let bytes: [UInt8]

    consuming func write(to writer: inout JSONWriter) {
        writer.rawJSON(bytes)
    }
}

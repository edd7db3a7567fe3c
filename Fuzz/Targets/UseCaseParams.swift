import Domain
@testable import WireContract
import WireJSON
@testable import Transport

// libFuzzer target: every use case's params decoding (Sources/Transport/Handlers/UseCaseInputs.swift
// over Sources/Transport/Wire/Params.swift). The first byte picks the use case, as an index into
// `UseCaseName.allCases` modulo its count; the rest is the params object's JSON.
//
// Checks, beyond not crashing: the decoder's answer is one the use case's params schema (what
// `describe` publishes) predicts — success exactly when no member is wrong at the wire level
// (missing, `null` when required, of another JSON type, an id's length), else `invalid_input`
// with the message for one of the wrong members, word for word. Which one comes first is each
// use case's documented order (Docs/PROTOCOL.md), not predicted here; value rules (ranges, text
// lengths, cursors, currencies) are the use case's, after decoding. And the params' canonical
// text, which is what an idempotency key binds a write to, decodes with the same answer: two
// params one key takes for the same request are one request to the use case.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUseCaseParams(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let useCases = UseCaseName.allCases
    let useCase = useCases[Int(data[0]) % useCases.count]
    let text = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    guard case .object(let object)? = try? JSONParser.parse(text) else { return 0 }

    let answer = decode(useCase, Params(object))
    let canonical = JSONValue.object(object).canonicalEncoded()
    guard case .object(let canonicalObject)? = try? JSONParser.parse(canonical, limits: canonicalTextLimits) else {
        require(false, "the canonical text \(describe(canonical)) of \(describe(text)) is no object")
        return 0
    }
    let canonicalAnswer = decode(useCase, Params(canonicalObject))
    require(message(answer) == message(canonicalAnswer), "\(useCase) answers \(message(answer)) to \(describe(text)) but \(message(canonicalAnswer)) to its canonical text \(describe(canonical))")

    guard case .object(let members) = useCase.paramsSchema else {
        require(false, "\(useCase)'s params schema is not an object")
        return 0
    }
    let predicted = violations(of: members, in: object, path: "")
    switch answer {
    case .success:
        require(predicted.isEmpty, "\(useCase) decoded \(describe(text)), its schema predicts \(predicted)")
    case .failure(let error):
        require(error.code == .invalidInput, "\(useCase) refused \(describe(text)) with \(error.code.rawValue)")
        require(predicted.contains(error.message), "\(useCase) refused \(describe(text)) with \"\(error.message)\", its schema predicts \(predicted.isEmpty ? "success" : "\(predicted)")")
    }
    return 0
}

/// "ok", or the error's code and message.
private func message(_ answer: Result<Void, WireError>) -> String {
    switch answer {
    case .success: return "ok"
    case .failure(let error): return "\(error.code.rawValue): \(error.message)"
    }
}

/// Runs `useCase`'s params decoding, as its route does before running the use case. An
/// exhaustive switch: a new use case does not build here without its decoder.
private func decode(_ useCase: UseCaseName, _ p: Params) -> Result<Void, WireError> {
    typealias Read = UseCaseInputs
    do throws(WireError) {
        switch useCase {
        case .registerUser: _ = try Read.registerUser(p)
        case .getUserProfile: _ = try Read.getUserProfile(p)
        case .updateUserProfile: _ = try Read.updateUserProfile(p)
        case .deactivateUser: _ = try Read.deactivateUser(p)
        case .startSubscription: _ = try Read.startSubscription(p)
        case .createRestaurant: _ = try Read.createRestaurant(p)
        case .getRestaurant: _ = try Read.getRestaurant(p)
        case .listRestaurants: _ = try Read.listRestaurants(p)
        case .searchRestaurants: _ = try Read.searchRestaurants(p)
        case .saveFavoriteRestaurant: _ = try Read.saveFavoriteRestaurant(p)
        case .removeFavoriteRestaurant: _ = try Read.removeFavoriteRestaurant(p)
        case .getFavoriteRestaurants: _ = try Read.getFavoriteRestaurants(p)
        case .addReview: _ = try Read.addReview(p)
        case .getReviews: _ = try Read.getReviews(p)
        case .calculateRestaurantScore: _ = try Read.calculateRestaurantScore(p)
        case .addMenuItem: _ = try Read.addMenuItem(p)
        case .restockMenuItem: _ = try Read.restockMenuItem(p)
        case .getMenu: _ = try Read.getMenu(p)
        case .placeOrder: _ = try Read.placeOrder(p)
        case .getOrder: _ = try Read.getOrder(p)
        case .listOrders: _ = try Read.listOrders(p)
        case .loadFeed: _ = try Read.loadFeed(p)
        case .cancelOrder: _ = try Read.cancelOrder(p)
        }
        return .success(())
    } catch {
        return .failure(error)
    }
}

/// The `invalid_input` message for each of `members` that `object` gets wrong at the wire level
/// (nested members too). `null` counts as absent; a repeated key's last value counts; unknown
/// members are ignored.
private func violations(of members: [WireSchema.Member], in object: JSONObject, path: String) -> [String] {
    var found: [String] = []
    for member in members {
        let name = path + member.name
        guard let value = object[member.name], !value.isNull else {
            if member.required { found.append("\(name): is required") }
            continue
        }
        found += violations(of: member.schema, by: value, name: name)
    }
    return found
}

/// The messages for `value` as the member `name` of schema `schema`, if it is wrong at the wire
/// level.
private func violations(of schema: WireSchema, by value: JSONValue, name: String) -> [String] {
    switch schema {
    case .string:
        guard case .string(let text) = value else { return ["\(name): must be a string"] }
        // Of the string rules only an id's length is the decoder's ("characters" are grapheme
        // clusters, Swift's count).
        if schema == .id, text.isEmpty || text.count > WireSchema.maximumIdentifierLength {
            return ["\(name): must be a non-empty id of at most \(WireSchema.maximumIdentifierLength) characters"]
        }
        return []
    case .integer:
        guard case .number(let number) = value, number.intValue != nil else { return ["\(name): must be an integer"] }
        return []
    case .number:
        guard case .number(let number) = value else { return ["\(name): must be a number"] }
        guard number.doubleValue.isFinite else { return ["\(name): must be a finite number"] }
        return []
    case .array(.string, _, _):
        guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else { return ["\(name): must be an array of strings"] }
        return []
    case .array(.object(let members), _, _):
        guard case .array(let elements) = value else { return ["\(name): must be an array of objects"] }
        var found: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                found.append("\(name)[\(index)]: must be an object")
                continue
            }
            found += violations(of: members, in: object, path: "\(name)[\(index)].")
        }
        return found
    default:
        require(false, "\(name): no wire rule for the schema \(schema) (teach this target the new kind)")
        return []
    }
}

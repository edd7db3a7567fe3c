import Testing
import WireJSON
@testable import LoadEngine

/// How `svcctl stress` compares an order as PlaceOrder answered it with the store's.
@Suite("Orders compared after a stress run")
struct OrderArithmeticTests {
    static let answered = Array(#"{"id":"o-1","userId":"u-1","items":[{"itemId":"m-1","quantity":2}],"subtotalCents":1200,"discountCents":0,"taxCents":96,"totalCents":1296,"currency":"USD","deliveryAddress":"1 Main St","createdAt":"2026-12-07T03:00:00.000Z"}"#.utf8)

    static func value(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func anOrderAsAnsweredMatchesTheSameOrderInAnotherLayout() throws {
        let listed = try Self.value(#"{ "createdAt": "2026-12-07T03:00:00.000Z", "totalCents": 1296, "taxCents": 96, "discountCents": 0, "subtotalCents": 1200, "currency": "USD", "deliveryAddress": "1 Main St", "items": [ { "itemId": "m-1", "quantity": 2 } ], "userId": "u-1", "id": "o-1", "status": "placed" }"#)
        #expect(OrderArithmetic.sameOrder(Self.answered, listed))
    }

    @Test func anyDifferenceInWhatWasAnsweredIsAMismatch() throws {
        let original = try JSONParser.parse(Self.answered)
        guard case .object(var changed) = original else { Issue.record("not an object"); return }
        changed["totalCents"] = .number(JSONNumber(1297))
        #expect(!OrderArithmetic.sameOrder(Self.answered, .object(changed)))
    }

    @Test func anAnswerThatIsNotJSONMatchesNothing() throws {
        #expect(!OrderArithmetic.sameOrder(Array(Self.answered.dropLast()), try JSONParser.parse(Self.answered)))
    }
}

import Testing
import WireContract
import WireJSON
@testable import LoadEngine

@Suite("The fast reply check")
struct ReplyScanTests {
    @Test func readsTheSlotAndSuccessOfAServiceReply() throws {
        let scan = ReplyScan()
        let body = PipelinedClientTests.success(id: "17", result: [:])
        let found = try #require(scan.idNumber(in: body))
        #expect(found.number == 17)
        #expect(scan.succeeds(body, after: found.end))
    }

    @Test func aFailureIsReadButNotASuccess() throws {
        let scan = ReplyScan()
        let body = PipelinedClientTests.failure(id: "3", code: .overloaded)
        let found = try #require(scan.idNumber(in: body))
        #expect(found.number == 3)
        #expect(!scan.succeeds(body, after: found.end))
    }

    /// Bodies whose start is not `{"v":1,"id":"<digits>"`: empty, an empty id, a letter first,
    /// no closing quote, the members in another order.
    static let unreadable: [[UInt8]] = [
        [],
        WireEnvelope.requestPrefix + Array("\"}".utf8),
        WireEnvelope.requestPrefix + Array("x1\"}".utf8),
        WireEnvelope.requestPrefix + Array("12".utf8),
        JSONValue.object(JSONObject([(WireEnvelope.Key.id.name, .string("1")), (WireEnvelope.Key.version.name, .int(WireEnvelope.version))])).encoded(),
    ]

    @Test(arguments: unreadable)
    func anythingElseIsUnreadable(_ body: [UInt8]) {
        #expect(ReplyScan().idNumber(in: body) == nil)
    }
}

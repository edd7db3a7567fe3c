import Domain
import Testing
import Transport
import WireContract
import WireJSON

/// The error's `outcome`: a write whose commit outcome is unknown says so in a typed member, which
/// every other error leaves out (it had no effect), and a client reads it back without the message.
@Suite struct ErrorOutcomeTests {
    private struct Unexpected: Error {}

    @Test func aWriteWhoseCommitOutcomeIsUnknownIsInternalWithOutcomeUnknown() throws {
        let error = WireError(mapping: RepositoryFailure.outcomeUnknown(reason: "the connection failed during COMMIT"))
        #expect(error.code == .internal)
        #expect(error.outcome == .unknown)
        let reply = try JSONParser.parse(WireReply.failure(id: "w-1", error: error))
        #expect(reply["error"]?["code"]?.stringValue == "internal")
        #expect(reply["error"]?["outcome"]?.stringValue == "unknown")
        #expect(reply.replyErrorOutcome == .unknown)
        guard case .success((let id, let read)) = WireEnvelope.readReply(reply) else {
            Issue.record("not read as a reply: \(reply)")
            return
        }
        #expect(id == "w-1")
        #expect(read.errorCode == .internal && read.errorOutcome == .unknown)
    }

    @Test func everyOtherErrorLeavesTheOutcomeOut() throws {
        let errors: [any Error] = [
            RepositoryFailure.unavailable(reason: "no connection"), RepositoryFailure.busy(reason: "no connection free"),
            DomainError.notFound(entity: "user", id: "u-1"), DomainError.invalidInput(field: "name", reason: "is empty"),
            WireError(.overloaded, "too many in flight"), Unexpected(),
        ]
        for error in errors {
            let wire = WireError(mapping: error)
            #expect(wire.outcome == nil, "\(wire)")
            let reply = try JSONParser.parse(WireReply.failure(id: nil, error: wire))
            let members = reply["error"]?.objectValue?.keys ?? []
            #expect(Set(members) == ["code", "message"], "\(wire): \(members)")
            #expect(reply.replyErrorOutcome == nil)
        }
    }

    @Test func anOutcomeThisVersionDoesNotKnowStaysReadableButUntyped() throws {
        let reply = try JSONParser.parse(Array(#"{"v":1,"id":null,"ok":false,"error":{"code":"internal","message":"m","outcome":"partial"}}"#.utf8))
        guard case .success((_, .failure(let code, _, let outcome))) = WireEnvelope.readReply(reply) else {
            Issue.record("not read as a failure: \(reply)")
            return
        }
        #expect(code == "internal" && outcome == "partial")
        #expect(reply.replyErrorOutcome == nil)
    }
}

import Testing
import Transport
import WireJSON
import WireTestSupport

extension SeededWireTests {
    @Suite struct Deadline {
        @Test func deadlineZeroIsExceededAndAnExpiredWriteHadNoEffect() async throws {
            let harness = try SeededService.harness()
            let address = try harness.address(.registerUser)
            let count = 200
            let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            // Every fifth request carries deadlineMs 0, the rest none; all are writes queued
            // behind each other on one endpoint.
            @Sendable func email(_ index: Int) -> String { "deadline-\(run)-\(index)@example.com" }
            @Sendable func hasDeadline(_ index: Int) -> Bool { index % 5 == 4 }
            let replies = try await withClient(.dealer, address) { client in
                for index in 0..<count {
                    try client.send(body: request(
                        id: "d-\(index)", params: ["name": .string("Deadline \(index)"), "email": .string(email(index))],
                        deadlineMs: hasDeadline(index) ? 0 : nil
                    ))
                }
                return try client.receiveReplies(upTo: count)
            }
            #expect(replies.count == count)

            var byIndex: [Int: Reply] = [:]
            for reply in replies {
                let id = try #require(reply.id?.stringValue, "\(reply)")
                let index = try #require(Int(id.dropFirst(2)), "unexpected id \(id)")
                #expect(byIndex.updateValue(reply, forKey: index) == nil, "two replies for \(id)")
            }
            var exceeded: [Int] = []
            var served: [Int] = []
            for index in 0..<count {
                let reply = try #require(byIndex[index], "no reply for d-\(index)")
                if hasDeadline(index) {
                    if reply.code == "deadline_exceeded" {
                        exceeded.append(index)
                    } else {
                        #expect(reply.ok == true, "d-\(index): \(reply)")
                        served.append(index)
                    }
                } else {
                    #expect(reply.ok == true, "d-\(index) had no deadline: \(reply)")
                }
            }
            #expect(!exceeded.isEmpty, "deadlineMs 0 expires at once, so at least one request must be deadline_exceeded")

            // An expired write had no effect: its e-mail address is still free. A served one took
            // the address: registering it again is a conflict.
            for index in exceeded {
                let again = try await call(address, request(id: "again-\(index)", params: ["name": "Again", "email": .string(email(index))]))
                #expect(again.ok == true, "d-\(index) was deadline_exceeded yet its e-mail is taken: \(again)")
            }
            for index in served {
                let again = try await call(address, request(id: "again-\(index)", params: ["name": "Again", "email": .string(email(index))]))
                #expect(again.code == "conflict", "d-\(index) was served, so its e-mail must be taken: \(again)")
            }
        }

        @Test func deadlineExceededReplyEchoesTheIdAndSaysItHadNoEffect() async throws {
            let harness = try SeededService.harness()
            let reply = try await call(try harness.address(.getReviews), request(id: "late", params: ["restaurantId": "r-000001"], deadlineMs: 0))
            #expect(reply.ok == false)
            #expect(reply.code == "deadline_exceeded", "\(reply)")
            #expect(reply.id == "late")
        }
    }
}

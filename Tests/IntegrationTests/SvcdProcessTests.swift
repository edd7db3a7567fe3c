import Foundation
import SvcdTestSupport
import Testing
import WireContract
import WireJSON
import WireTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A signal to stop svcd with, named for test output.
struct StopSignal: Sendable, CustomTestStringConvertible {
    let number: Int32
    let name: String
    var testDescription: String { name }
}

/// Bad command lines and a word the error message must contain.
struct BadFlags: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let mentions: String
    var testDescription: String { arguments.joined(separator: " ") }
}

/// Tests that each start (and end) an svcd process of their own.
@Suite struct SvcdProcessTests {
    @Test(arguments: [StopSignal(number: SIGTERM, name: "SIGTERM"), StopSignal(number: SIGINT, name: "SIGINT")])
    func sigtermDrainsAndExitsZero(_ signal: StopSignal) async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let address = try endpoints.address(.searchRestaurants)
            let count = 40
            // Pipeline heavy searches, and signal svcd once the first answer shows it is busy.
            let replies = try await withClient(.dealer, address) { client in
                for index in 0..<count {
                    try client.send(body: request(id: "sig-\(index)", params: ["query": "a", "limit": 500]))
                }
                guard let first = try client.receiveReply() else { return [Reply]() }
                child.send(signal: signal.number)
                return [first] + (try client.receiveReplies(upTo: count - 1))
            }
            #expect(await child.waitForExit(timeout: 15), "svcd did not exit within 15 s of \(signal.name)")
            #expect(child.exitStatus == 0, "svcd exit status after \(signal.name): \(String(describing: child.exitStatus)), reason \(child.exitedNormally ? "exit" : "signal"); stderr:\n\(child.stderrText)")
            // Requests already accepted are answered; none is lost or answered twice.
            #expect(replies.count == count, "every request sent before the signal gets a reply")
            #expect(Set(replies.compactMap { $0.id?.stringValue }).count == replies.count)
            for reply in replies {
                #expect(reply.ok == true || reply.code == "unavailable", "\(reply)")
            }
        }
    }

    /// A signal in the instant `endpoints.json` appears (before, svcd's handler came later and
    /// the default action killed it: exit 143, the file left naming a dead process).
    @Test func aSigtermAsSoonAsEndpointsJsonAppearsExitsZeroAndLeavesNoFile() async throws {
        for attempt in 1...5 {
            let child = try await SvcdChild.launch(seed: false)
            let file = EndpointsFile.path(in: child.dataDirectory)
            let deadline = ContinuousClock.now + .seconds(30)
            while !FileManager.default.fileExists(atPath: file), child.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            child.send(signal: SIGTERM)
            let exited = await child.waitForExit(timeout: 15)
            let status = child.exitStatus
            let left = FileManager.default.fileExists(atPath: file)
            let stderr = child.stderrText
            await child.stop()
            #expect(exited, "attempt \(attempt): svcd did not exit within 15 s of SIGTERM")
            #expect(status == 0, "attempt \(attempt): exit status \(String(describing: status)) (nil: killed by the signal); stderr:\n\(stderr)")
            #expect(!left, "attempt \(attempt): endpoints.json left behind")
        }
    }

    /// SIGKILL while the sample is being seeded (or before, or after: wherever it lands), then a
    /// start with `--seed-sample`: the whole sample is there.
    @Test func svcdKilledWhileSeedingHoldsTheWholeSampleAfterTheNextStart() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("integration-seedkill-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dataDirectory = root + "/data"
        let first = try await SvcdChild.launch(seed: true, dataDirectory: dataDirectory)
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: dataDirectory + "/store.sqlite-wal"), first.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        try await Task.sleep(for: .milliseconds(300))  // into the seeding, which takes seconds in a debug build
        first.send(signal: SIGKILL)
        #expect(await first.waitForExit(timeout: 15))
        await first.stop()

        let second = try await SvcdChild.launch(seed: true, dataDirectory: dataDirectory)
        do {
            let endpoints = try await second.endpoints()
            for (useCase, params) in [
                (UseCaseName.getUserProfile, ["userId": "u-000060"] as JSONValue), (.getRestaurant, ["restaurantId": "r-000300"]),
                (.getOrder, ["orderId": "o-000040"]),
            ] {
                let reply = try await call(try endpoints.address(useCase), request(params: params))
                #expect(reply.ok == true, "\(useCase.rawValue) of the sample's last row: \(reply)")
            }
            let reply = try await call(try endpoints.address(.listRestaurants), request(params: ["limit": 100]))
            var count = reply.result?["restaurants"]?.arrayValue?.count ?? 0
            var cursor = reply.result?["nextCursor"]?.stringValue
            while let next = cursor {
                let page = try await call(try endpoints.address(.listRestaurants), request(params: ["limit": 100, "cursor": .string(next)]))
                count += page.result?["restaurants"]?.arrayValue?.count ?? 0
                cursor = page.result?["nextCursor"]?.stringValue
            }
            #expect(count == 300, "the sample's 300 restaurants, no more and no fewer")
        } catch {
            await second.stop()
            throw error
        }
        await second.stop()
    }

    @Test func sigtermStopsTakingRequestsOnEveryEndpoint() async throws {
        try await withSvcd(seed: true) { child in
            let endpoints = try await child.endpoints()
            let search = try endpoints.address(.searchRestaurants)
            let register = try endpoints.address(.registerUser)
            let email = "after-sigterm-\(UUID().uuidString.lowercased())@example.com"
            let outcome = try await onThread { () -> (drainingSeen: Bool, lateWrite: Reply?) in
                let heavy = try WireClient(.dealer, connectTo: search, receiveTimeout: 50)
                defer { heavy.close() }
                let writer = try WireClient(.req, connectTo: register, receiveTimeout: 3000)
                defer { writer.close() }
                for index in 0..<60 {
                    try heavy.send(body: request(id: "h-\(index)", params: ["query": "a", "limit": 500]))
                }
                var first: Reply?
                let busy = Date().addingTimeInterval(5)
                while first == nil && Date() < busy { first = try heavy.receiveReply() }
                guard first != nil else { return (false, nil) }
                child.send(signal: SIGTERM)
                // Probe SearchRestaurants until it answers `unavailable`: the shutdown has reached
                // it, and it is still draining its queue of heavy searches.
                var draining = false
                var probe = 0
                let deadline = Date().addingTimeInterval(5)
                while !draining && Date() < deadline {
                    try heavy.send(body: request(id: "probe-\(probe)", params: ["query": "zzzz", "limit": 1]))
                    probe += 1
                    // Read for about 50 ms (heavy replies keep coming), then probe again.
                    let window = Date().addingTimeInterval(0.05)
                    while !draining, Date() < window, let reply = try heavy.receiveReply() {
                        draining = reply.code == "unavailable"
                    }
                }
                guard draining else { return (false, nil) }
                // The service is shutting down, so a new write must not be taken any more.
                let late = try writer.call(request(id: "late-write", params: ["name": "Late Writer", "email": .string(email)]))
                return (true, late)
            }
            #expect(outcome.drainingSeen, "SearchRestaurants never answered unavailable after SIGTERM")
            // svcd stops its endpoints one at a time (reverse order), but the first shutdown
            // signal makes every endpoint refuse new requests, so RegisterUser (stopped last)
            // must not take a write while SearchRestaurants is still draining.
            #expect(outcome.lateWrite?.ok != true, "RegisterUser executed a write after SIGTERM: \(String(describing: outcome.lateWrite))")
            #expect(outcome.lateWrite == nil || outcome.lateWrite?.code == "unavailable", "\(String(describing: outcome.lateWrite))")
            #expect(await child.waitForExit(timeout: 15), "svcd did not exit within 15 s of SIGTERM")
            #expect(child.exitStatus == 0)
        }
    }

    @Test(arguments: [
        BadFlags(arguments: ["--tax-rate", "abc"], mentions: "tax-rate"),
        BadFlags(arguments: ["--tax-rate", "1.5"], mentions: "tax-rate"),
        BadFlags(arguments: ["--port-base", "70000"], mentions: "port-base"),
        BadFlags(arguments: ["--no-such-flag"], mentions: "no-such-flag"),
        BadFlags(arguments: ["--store", "postgres"], mentions: "--database-url"),
        BadFlags(arguments: ["--store", "postgres", "--database-url", "mysql://u@h/db"], mentions: "postgres://"),
        BadFlags(arguments: ["--store", "postgres", "--database-url", "postgres://u@h"], mentions: "names no database"),
        BadFlags(arguments: ["--database-url", "postgres://u@h/db"], mentions: "only for --store postgres"),
        BadFlags(arguments: ["--store", "postgres", "--database-url", "postgres://u@h/db", "--database-connections", "1"], mentions: "database-connections"),
        BadFlags(arguments: ["--store", "oracle"], mentions: "postgres"),
        BadFlags(arguments: ["--otlp-endpoint", "127.0.0.1:4318"], mentions: "--otlp-endpoint 127.0.0.1:4318 is not an http:// or https:// URL"),
        BadFlags(arguments: ["--trace-sampling", "1.5"], mentions: "--trace-sampling must be between 0 and 1"),
        BadFlags(arguments: ["--trace-sampling", "-0.5"], mentions: "--trace-sampling must be between 0 and 1"),
        // Negative numbers are the flag's value (refused for its range), not an unknown flag.
        BadFlags(arguments: ["--tax-rate", "-0.1"], mentions: "--tax-rate must be a decimal fraction between 0 and 1"),
        BadFlags(arguments: ["--port-base", "-1"], mentions: "--port-base must be between 0 and 65000"),
        BadFlags(arguments: ["--max-in-flight", "-5"], mentions: "--max-in-flight must be between 1 and 1000000"),
        BadFlags(arguments: ["--queue-time-target", "0"], mentions: "--queue-time-target must be between 1 and 60000 milliseconds"),
        // Not an address: named as a --host problem, not libzmq's "No such device".
        BadFlags(arguments: ["--host", "999.1.1.1"], mentions: "--host 999.1.1.1 is not an IPv4 address"),
        BadFlags(arguments: ["--host", "localhost"], mentions: "--host localhost is not an IPv4 address"),
    ])
    func svcdRejectsBadFlags(_ bad: BadFlags) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-flags-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await runTool(try ExecutableLocator.svcd(), ["--port-base", "0", "--data-dir", directory] + bad.arguments, timeout: 15)
        let status = try #require(outcome.status, "svcd \(bad.arguments) did not exit within 15 s")
        #expect(status == 64, "a bad command line exits 64 (EX_USAGE): \(bad.arguments) gave \(status)")
        #expect(outcome.stderr.contains(bad.mentions), "stderr should name the flag: \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/endpoints.json"), "a refused start binds nothing")
    }

    @Test func svcdThatCannotReachItsDatabaseExitsSayingSo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-nodb-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Port 1 on loopback: nothing listens there (a privileged port no test binds).
        let outcome = try await runTool(
            try ExecutableLocator.svcd(),
            ["--port-base", "0", "--data-dir", directory, "--store", "postgres", "--database-url", "postgres://svc@127.0.0.1:1/svc"],
            timeout: 60
        )
        let status = try #require(outcome.status, "svcd did not give up on an unreachable database within 60 s")
        #expect(status == 69, "a database that does not answer at start-up exits 69 (EX_UNAVAILABLE)")
        #expect(outcome.stderr.contains("cannot open the PostgreSQL database postgres://svc@127.0.0.1:1/svc"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/endpoints.json"), "a failed start binds nothing")
    }

    /// A database that refuses svcd's configuration is exit 78 (EX_CONFIG, not restarted by the
    /// units) at once, with the server's reason, and not "cannot be reached" after 10 s (69).
    @Test func svcdRefusedByItsDatabaseExitsSeventyEightWithTheServersReason() async throws {
        try await withPostgres(fsync: false) { server in
            _ = try await server.psql("CREATE ROLE lowly LOGIN")
            let base = "postgres://\(server.user)@127.0.0.1:\(server.port)"
            for (url, reason) in [
                ("\(base)/no_such_database", "database \"no_such_database\" does not exist (SQLSTATE 3D000)"),
                ("postgres://no_such_role@127.0.0.1:\(server.port)/svc", "role \"no_such_role\" does not exist (SQLSTATE 28000)"),
                ("postgres://lowly@127.0.0.1:\(server.port)/svc", "permission denied for schema public (SQLSTATE 42501)"),
            ] {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("integration-refused-\(UUID().uuidString)").path
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let started = ContinuousClock.now
                let outcome = try await runTool(
                    try ExecutableLocator.svcd(), ["--port-base", "0", "--data-dir", directory, "--store", "postgres", "--database-url", url], timeout: 60
                )
                #expect(outcome.status == 78, "\(url): \(outcome)")
                #expect(ContinuousClock.now - started < .seconds(8), "\(url): refused at once, not after the 10 s wait for an absent database")
                #expect(outcome.stderr.contains(reason), "\(url): \(outcome.stderr)")
                #expect(!outcome.stderr.contains("cannot be reached"), "\(url): one cause, not an outage: \(outcome.stderr)")
            }
        }
    }

    @Test func placeOrderWithDiscountAboveSubtotalIsRefusedNotFatal() async throws {
        try await withSvcd(seed: false) { child in
            let wire = Wire(endpoints: try await child.endpoints())
            let user = try await wire.ok(.registerUser, ["name": "Discount Tester", "email": "discount@example.com"])
            let userId = try #require(user["user"]?["id"])
            let restaurant = try await wire.ok(.createRestaurant, [
                "name": "Discount Diner", "cuisine": "Test", "priceLevel": 1, "address": "1 Way", "latitude": 0, "longitude": 0,
            ])
            let restaurantId = try #require(restaurant["restaurant"]?["id"])
            let item = try await wire.ok(.addMenuItem, ["restaurantId": restaurantId, "name": "Dish", "priceCents": 2000, "currency": "USD", "stock": 5])
            let itemId = try #require(item["item"]?["id"])

            let address = try wire.endpoints.address(.placeOrder)
            let body = request(id: "too-much-discount", params: [
                "userId": userId, "items": [["itemId": itemId, "quantity": 1]], "discountCents": 3000, "deliveryAddress": "2 Way",
            ])
            let reply = try await withClient(.req, address, receiveTimeout: 3000) { client in try client.call(body) }
            // Regression guard: Docs/PROTOCOL.md ("Known deviations" 3) records that this request
            // used to crash svcd (TaxRate.tax(on:) trapped on a negative taxable amount). The
            // contract requires invalid_input, and the service must stay up.
            let refused = try #require(reply, "no reply: svcd died? stderr:\n\(child.stderrText.suffix(600))")
            #expect(refused.code == "invalid_input", "\(refused)")
            #expect(refused.message?.contains("discountCents") == true, "\(refused)")
            #expect(child.isRunning)
            let placed = try await wire.ok(.placeOrder, [
                "userId": userId, "items": [["itemId": itemId, "quantity": 1]], "discountCents": 500, "deliveryAddress": "2 Way",
            ])
            #expect(placed["order"]?["taxCents"] == 120, "(2000 − 500) × 0.08 = 120")
            #expect(placed["order"]?["totalCents"] == 1620)
        }
    }
}

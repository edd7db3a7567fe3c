import Foundation
import Testing
import SvcdTestSupport
import WireJSON

extension StressSuite {
    /// `svcctl stress` against an svcd whose use-case endpoints are CURVE servers, with a client
    /// key made by `svcctl keygen --client-keys`: the load goes through encrypted, and every
    /// invariant is checked as over plaintext.
    @Suite struct CurveStressTests {
        @Test func stressWithAListedKeyRunsCleanOverCurve() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curve-stress-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let dataDirectory = directory + "/data"
            let keysFile = directory + "/client_keys"
            let svcctl = try ExecutableLocator.svcctl()
            let keygen = try await runTool(svcctl, ["keygen", "--data-dir", dataDirectory, "--name", "stress", "--client-keys", keysFile], timeout: 20)
            try #require(keygen.status == 0, "\(keygen)")
            let child = try await SvcdChild.launch(seed: true, arguments: ["--client-keys", keysFile], dataDirectory: dataDirectory)
            do {
                let endpoints = try await child.endpoints()
                #expect(endpoints.useCaseServerKey != nil)
                let run = try await runTool(svcctl, [
                    "stress", "--data-dir", dataDirectory, "--duration", "3s", "--rate", "300", "--clients", "8", "--json",
                    "--public-key-file", dataDirectory + "/keys/stress.public", "--secret-key-file", dataDirectory + "/keys/stress.secret",
                ], timeout: 180)
                let report = try #require(try? JSONParser.parse(run.stdout), "no JSON report: \(run)")
                #expect(run.status == 0, "a clean run over CURVE: \(run.stderr.suffix(2000))")
                let ok = report["useCases"]?.objectValue?.reduce(0) { $0 + ($1.value["ok"]?.intValue ?? 0) } ?? 0
                #expect(ok > 100, "requests answered ok over CURVE: \(ok)")
                #expect(report["settings"]?["transport"]?.stringValue == "libzmq", "CURVE is libzmq's")
            } catch {
                await child.stop()
                throw error
            }
            await child.stop()
        }
    }
}

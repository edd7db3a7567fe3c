import Foundation
import Testing
import WireContract

/// The deployment files publish every port svcd binds, derived from the contract's port layout:
/// a new endpoint left out of the Dockerfile or the documented `docker run` fails here.
@Suite struct DeployFilesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `7100-7122 7150-7151` for base 7100: each run of consecutive ports as `a-b` (or `a`).
    private static func runs(base: Int) -> [String] {
        PortLayout.runs.map { run in
            run.count == 1 ? "\(base + run.lowerBound)" : "\(base + run.lowerBound)-\(base + run.upperBound)"
        }
    }

    @Test func theLayoutCoversAdminUseCasesAndEvents() {
        let offsets = PortLayout.offsets
        #expect(Set(offsets).count == offsets.count, "two endpoints on one port: \(offsets)")
        #expect(offsets.count == 1 + UseCaseName.allCases.count + 2)
        #expect(offsets.contains(WireEvent.streamPortOffset) && offsets.contains(WireEvent.logPortOffset))
    }

    @Test func theDockerfileExposesEveryPortSvcdBinds() throws {
        let dockerfile = try Self.text("Deploy/Dockerfile")
        let exposed = dockerfile.split(separator: "\n").filter { $0.hasPrefix("EXPOSE ") }
        #expect(exposed.map { $0.split(separator: " ").dropFirst().map(String.init) } == [Self.runs(base: 7100)], "\(exposed)")
    }

    @Test func everyDocumentedDockerRunPublishesEveryPort() throws {
        let publish = Self.runs(base: 7100).map { "-p 127.0.0.1:\($0):\($0)" }.joined(separator: " ")
        for path in ["Deploy/Dockerfile", "Docs/OPERATIONS.md"] {
            let runs = try Self.text(path).split(separator: "\n").filter { $0.contains("docker run ") }
            #expect(!runs.isEmpty, "\(path) shows no docker run")
            for line in runs {
                #expect(line.contains(publish), "\(path): \(line) does not publish \(publish)")
            }
        }
    }

    /// Bad flags (64), a data directory held by another svcd (73) and a database that refuses the
    /// configuration (78) are not restarted: a restart cannot fix them. The units and OPERATIONS agree.
    @Test func theUnitsDoNotRestartWhatARestartCannotFix() throws {
        let codes = "64 73 78"
        for unit in ["Deploy/svcd.service", "Deploy/svcd@.service"] {
            let lines = try Self.text(unit).split(separator: "\n").filter { $0.hasPrefix("RestartPreventExitStatus=") }
            #expect(lines == ["RestartPreventExitStatus=\(codes)"], "\(unit): \(lines)")
        }
        #expect(try Self.text("Docs/OPERATIONS.md").contains("restart svcd after 64, 73 or 78 (`RestartPreventExitStatus`)"))
    }
}

import Foundation
import Testing
import SvcdTestSupport

/// Docs/PROTOCOL.md's example replies are what a real svcd answers today: the script that
/// captured them, in check mode, against the svcd these tests run.
@Suite struct ProtocolExamplesTests {
    @Test func everyExampleReplyInTheProtocolDocumentIsWhatSvcdAnswers() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let outcome = try await runTool(
            "/usr/bin/env",
            ["python3", root + "/Scripts/capture-protocol-examples.py", "--check", "--svcd", try ExecutableLocator.svcd(), "--doc", root + "/Docs/PROTOCOL.md"],
            timeout: 120
        )
        #expect(outcome.status == 0, "examples differ from svcd's replies (re-capture with Scripts/capture-protocol-examples.py):\n\(outcome.stdout.suffix(3000))\n\(outcome.stderr.suffix(2000))")
        #expect(outcome.stdout.contains(" examples, 0 differ"), "\(outcome.stdout.suffix(500))")
    }
}

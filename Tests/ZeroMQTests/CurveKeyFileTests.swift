import Foundation
import Testing
import ZeroMQ

/// The one key-file reader: the key on the first line, blanks around it ignored, anything else a
/// clear problem.
@Suite struct CurveKeyFileTests {
    private static let key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"

    @Test func theKeyIsTheFirstLineWithoutItsBlanks() throws {
        #expect(ZMQCurve.isKey(Self.key))
        for text in [Self.key, Self.key + "\n", " \t" + Self.key + " \r\n", Self.key + "\n# a comment\nmore"] {
            #expect(try CurveKeyFile.key(in: Array(text.utf8)) == Self.key, "\(text.debugDescription)")
        }
    }

    @Test func anythingElseIsNoKey() {
        let short = String(Self.key.dropLast())
        for text in ["", "\n", "\n" + Self.key, short, Self.key + "x", Self.key + " x", String(repeating: "~", count: 40), "# comment\n" + Self.key] {
            #expect(throws: CurveKeyFile.Problem.noKey, "\(text.debugDescription)") { try CurveKeyFile.key(in: Array(text.utf8)) }
        }
    }

    @Test func filesAreReadAndAMissingOneSaysWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("client.public").path
        try Data((Self.key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(try CurveKeyFile.key(at: path) == Self.key)
        #expect(throws: CurveKeyFile.Problem.unreadable(reason: "No such file or directory")) {
            try CurveKeyFile.key(at: directory.appendingPathComponent("absent").path)
        }
        #expect(throws: CurveKeyFile.Problem.unreadable(reason: "Is a directory")) { try CurveKeyFile.key(at: directory.path) }
    }
}

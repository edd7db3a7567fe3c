import Foundation
import Testing
import WireContract

/// The counts the reference docs state are the contract's: a use case added without the docs
/// following fails here. (BENCHMARKS*.md is exempt: its counts are of the measured mixes.)
@Suite struct DocumentedCountsTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every Docs/*.md but the benchmark reports, with their text.
    private static func documents() throws -> [(path: String, text: String)] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
            .filter { $0.hasSuffix(".md") && !$0.hasPrefix("BENCHMARKS") }.sorted().map { "Docs/" + $0 }
        return try (["README.md"] + docs).map { path in
            (path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Every number `pattern`'s first capture group matches in `text`.
    private static func numbers(_ pattern: String, in text: String) throws -> [Int] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) }
        }
    }

    @Test func everyStatedNumberOfUseCasesIsTheContracts() throws {
        var stated = 0
        for (path, text) in try Self.documents() {
            for number in try Self.numbers(#"\b(\d+) use[- ]cases?\b"#, in: text) {
                stated += 1
                #expect(number == UseCaseName.allCases.count, "\(path) says \(number) use cases; the contract has \(UseCaseName.allCases.count)")
            }
        }
        #expect(stated > 0, "the docs state the number of use cases somewhere (else this test checks nothing)")
    }

    @Test func everyStatedNumberOfWritesIsTheContracts() throws {
        let writes = UseCaseName.allCases.filter(\.writes).count
        var stated = 0
        for (path, text) in try Self.documents() {
            for number in try Self.numbers(#"\ball (\d+) writes\b"#, in: text) {
                stated += 1
                #expect(number == writes, "\(path) says all \(number) writes; the contract has \(writes)")
            }
        }
        #expect(stated > 0, "the docs state the number of writes somewhere (else this test checks nothing)")
    }
}

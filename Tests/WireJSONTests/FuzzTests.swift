import RestaurantTesting
import SeededRandom
import Testing
import WireJSON

/// Deterministic fuzzing: more than 100,000 inputs (random bytes, mutations of valid
/// documents, deep nesting, huge numbers, long strings, invalid UTF-8). The parser must
/// never crash, every error offset must lie inside the input, and whatever parses must
/// re-encode and re-parse to the same value and the same bytes. Seeds are fixed, so a
/// failure reproduces; the failing input is printed.
@Suite("Fuzz")
struct FuzzTests {
    /// Parses `input` and checks the invariants; returns whether it was accepted.
    @discardableResult
    static func check(_ input: [UInt8], limits: JSONParser.Limits = .init(), failures: inout Int) -> Bool {
        func fail(_ message: String) {
            failures += 1
            if failures <= 5 {
                Issue.record("\(message) for input \(input.count <= 300 ? "\(input)" : "of \(input.count) bytes")")
            }
        }
        switch parseResult(input, limits: limits) {
        case .failure(let error):
            if error.offset < 0 || error.offset > input.count { fail("offset \(error.offset) outside the input") }
            return false
        case .success(let value):
            let encoded = value.encoded()
            switch parseResult(encoded, limits: limits) {
            case .failure(let error):
                fail("re-encoded value does not parse: \(error)")
            case .success(let reparsed):
                if reparsed != value { fail("re-parsed value differs") }
                if reparsed.encoded() != encoded { fail("re-encoding is not stable") }
            }
            return true
        }
    }

    /// Valid documents to mutate: every y_ file, the typical request, generated values.
    static let seeds: [[UInt8]] = {
        var seeds = TestSuiteFiles.names(prefix: "y_").map { TestSuiteFiles.bytes($0) }
        seeds.append(Array(typicalRequest.utf8))
        seeds.append(Array(#"{"v":1,"id":"r-1","op":"stats","params":{"limit":50,"cursor":null,"q":"caf\u00e9 \ud83d\ude00"}}"#.utf8))
        seeds.append(Array(#"[-0.0e+00,1E400,"\"\\\/\b\f\n\r\t",{"":{"":[]}},true,false,null]"#.utf8))
        var generator = ValueGenerator(seed: 7)
        for _ in 0..<60 { seeds.append(generator.value(depth: 4).encoded()) }
        return seeds
    }()

    /// Fragments that are likely to matter when inserted.
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", "\\", ",", ":", "0", "-", "e", ".", "+", "1e999", "true", "null", "\\u", "\\uD800",
        "\\uDC00", "\\uD834\\uDD1E", "\\n", " ", "\t", "é", "😀", "00", "-0", "1.", "[[[[", "]]]]", "\"a\":",
    ].map { Array($0.utf8) } + [[0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x00], [0x1F], [0xEF, 0xBB, 0xBF], [0xE2, 0x82]]

    @Test("random bytes")
    func randomBytes() async {
        var rng = SplitMix64(seed: 0xB17E5)
        let alphabet = Array(#"{}[]",:0123456789-+.eEtrufalsn \"#.utf8) + [0x5C, 0x0A, 0x80, 0xC3, 0xA9, 0xFF]
        var failures = 0
        var accepted = 0
        for round in 0..<20_000 {
            await yieldToOtherTests(every: round)
            let length = Int.random(in: 0..<64, using: &rng)
            let input: [UInt8] = (0..<length).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &rng) : alphabet.randomElement(using: &rng)!
            }
            if Self.check(input, failures: &failures) { accepted += 1 }
        }
        #expect(failures == 0)
        #expect(accepted > 0)
    }

    @Test("mutations of valid documents")
    func mutations() async {
        var rng = SplitMix64(seed: 0x5EED)
        var failures = 0
        var accepted = 0
        let seeds = Self.seeds
        for index in 0..<50_000 {
            await yieldToOtherTests(every: index)
            var input = seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                Self.mutate(&input, seeds: seeds, rng: &rng)
            }
            if Self.check(input, failures: &failures) { accepted += 1 }
        }
        #expect(failures == 0)
        // Many single mutations keep the document valid (e.g. inside strings).
        #expect(accepted > 1000)
    }

    static func mutate(_ input: inout [UInt8], seeds: [[UInt8]], rng: inout SplitMix64) {
        let position = input.isEmpty ? 0 : Int.random(in: 0..<input.count, using: &rng)
        switch Int.random(in: 0..<9, using: &rng) {
        case 0 where !input.isEmpty:  // byte flip
            input[position] = UInt8.random(in: 0...255, using: &rng)
        case 1 where !input.isEmpty:  // bit flip
            input[position] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
        case 2:  // insert a random byte
            input.insert(UInt8.random(in: 0...255, using: &rng), at: position)
        case 3:  // insert a token
            input.insert(contentsOf: tokens.randomElement(using: &rng)!, at: position)
        case 4 where !input.isEmpty:  // delete a range
            let end = min(input.count, position + Int.random(in: 1...8, using: &rng))
            input.removeSubrange(position..<end)
        case 5:  // truncate
            input.removeSubrange(position..<input.count)
        case 6:  // splice: this prefix, another document's suffix
            let other = seeds.randomElement(using: &rng)!
            let cut = other.isEmpty ? 0 : Int.random(in: 0..<other.count, using: &rng)
            input = Array(input[..<position]) + other[cut...]
        case 7 where !input.isEmpty:  // duplicate a range
            let end = min(input.count, position + Int.random(in: 1...16, using: &rng))
            input.insert(contentsOf: input[position..<end], at: end)
        default:  // replace a byte with a structural one
            if !input.isEmpty { input[position] = Array("{}[]\",:\\".utf8).randomElement(using: &rng)! }
        }
    }

    @Test("deep and unbalanced nesting")
    func nesting() async {
        var rng = SplitMix64(seed: 0xDEE9)
        var failures = 0
        var accepted = 0
        for index in 0..<10_000 {
            await yieldToOtherTests(every: index)
            var input: [UInt8] = []
            var open: [UInt8] = []
            let depth = Int.random(in: 50...80, using: &rng)
            for _ in 0..<depth {
                if Bool.random(using: &rng) {
                    input += Array(#"{"k":"#.utf8)
                    open.append(UInt8(ascii: "}"))
                } else {
                    input.append(UInt8(ascii: "["))
                    open.append(UInt8(ascii: "]"))
                }
            }
            input += Array(#""leaf""#.utf8)
            // Mostly balanced; sometimes one closer is wrong, missing or extra.
            var closers = Array(open.reversed())
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: closers.removeLast()
            case 1: closers.append(UInt8(ascii: "]"))
            case 2: closers[Int.random(in: 0..<closers.count, using: &rng)] = UInt8(ascii: ",")
            default: break
            }
            input += closers
            if Self.check(input, failures: &failures) {
                accepted += 1
                if depth > 64 { failures += 1; Issue.record("depth \(depth) accepted") }
            }
        }
        // The 100,000-bracket case with every kind of opener.
        for opener in ["[", #"{"a":"#, #"[{"a":"#] {
            let huge = Array(String(repeating: opener, count: 100_000).utf8)
            #expect(parseError(huge)?.kind == .nestingTooDeep)
        }
        #expect(failures == 0)
        #expect(accepted > 100)
    }

    @Test("huge, long and malformed numbers")
    func numbers() async {
        var rng = SplitMix64(seed: 0x4E_0B)
        var failures = 0
        var accepted = 0
        let alphabet = Array("0123456789-+.eE".utf8)
        for round in 0..<10_000 {
            await yieldToOtherTests(every: round)
            var text: [UInt8]
            if round % 3 == 0 {
                // mostly grammatical: sign, digits, fraction, exponent of random sizes
                text = Bool.random(using: &rng) ? [UInt8(ascii: "-")] : []
                let digits = Int.random(in: 1...(round % 30 == 0 ? 1100 : 25), using: &rng)
                text += [UInt8(ascii: "1")] + (1..<digits).map { _ in UInt8.random(in: 0x30...0x39, using: &rng) }
                if Bool.random(using: &rng) { text += [UInt8(ascii: ".")] + (0..<Int.random(in: 1...30, using: &rng)).map { _ in UInt8(ascii: "7") } }
                if Bool.random(using: &rng) { text += Array("e-".utf8) + Array(String(Int.random(in: 0...999_999_999, using: &rng)).utf8) }
            } else {
                text = (0..<Int.random(in: 1...30, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            let input = [UInt8(ascii: "[")] + text + [UInt8(ascii: "]")]
            guard Self.check(input, failures: &failures) else {
                // Rejected as a document ⇒ not a number (or over the length limit).
                if text.count <= 1000, JSONNumber(text: String(decoding: text, as: UTF8.self)) != nil {
                    failures += 1
                    Issue.record("valid number \(String(decoding: text, as: UTF8.self)) rejected")
                }
                continue
            }
            accepted += 1
            guard let number = parsed(input)?[0]?.numberValue else { continue }
            #expect(number.text == String(decoding: text, as: UTF8.self))
            if let integer = number.int64Value {
                // An exact integer must agree with the correctly rounded Double.
                let double = number.doubleValue
                if Double(integer) != double {
                    failures += 1
                    Issue.record("\(number.text): int64 \(integer) but double \(double)")
                }
            }
        }
        #expect(failures == 0)
        #expect(accepted > 1000)
    }

    @Test("long strings and invalid UTF-8, checked against the stdlib's UTF-8 validation")
    func strings() async {
        var rng = SplitMix64(seed: 0x57_819)
        var failures = 0
        var accepted = 0
        func fail(_ message: String) {
            failures += 1
            if failures <= 5 { Issue.record(Comment(rawValue: message)) }
        }
        let fragments: [[UInt8]] = [
            Array("plain ascii text ".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x7F],
            [0x80], [0xBF], [0xC0, 0xAF], [0xC2], [0xE0, 0x9F, 0xBF], [0xED, 0xB0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ]
        for round in 0..<10_000 {
            await yieldToOtherTests(every: round)
            // Raw bytes only (no escapes, quotes or control characters), so the stdlib's
            // validation is an exact oracle for acceptance.
            var content: [UInt8] = []
            let pieces = round % 50 == 0 ? 2000 : Int.random(in: 0..<12, using: &rng)
            for _ in 0..<pieces {
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    content += fragments.randomElement(using: &rng)!
                } else {
                    content += fragments[Int.random(in: 0..<5, using: &rng)]
                }
            }
            let input = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            let oracle = String(validating: content, as: UTF8.self)
            if Self.check(input, failures: &failures) {
                accepted += 1
                if oracle == nil || parsed(input)?.stringValue.map({ Array($0.utf8) }) != content {
                    fail("accepted invalid or altered UTF-8 \(content.prefix(64))")
                }
            } else if oracle != nil {
                fail("rejected valid UTF-8 \(content.prefix(64)): \(String(describing: parseError(input)))")
            } else if parseError(input)?.kind != .invalidUTF8 {
                fail("invalid UTF-8 reported as \(String(describing: parseError(input)))")
            }
        }
        // Strings with escapes: random mixes of escapes and raw text.
        let escapes = [#"\n"#, #"\""#, #"\\"#, #"\/"#, #"\u0000"#, #"\u00e9"#, #"\uD834\uDD1E"#, #"\uD834"#, #"\uDD1E"#, #"\x"#, #"\u12"#, "é", "ab", "\u{1}"]
        for index in 0..<10_000 {
            await yieldToOtherTests(every: index)
            let body = (0..<Int.random(in: 0..<10, using: &rng)).map { _ in escapes.randomElement(using: &rng)! }.joined()
            Self.check(Array(("\"" + body + "\"").utf8), failures: &failures)
        }
        #expect(failures == 0)
        #expect(accepted > 1000)
    }

    @Test("tight limits never break the invariants")
    func tightLimits() async {
        var rng = SplitMix64(seed: 0x11_417)
        var failures = 0
        let seeds = Self.seeds
        for index in 0..<5_000 {
            await yieldToOtherTests(every: index)
            let limits = JSONParser.Limits(
                maxDepth: Int.random(in: 0...4, using: &rng),
                maxStringBytes: Int.random(in: 0...8, using: &rng),
                maxNumberLength: Int.random(in: 1...4, using: &rng))
            var input = seeds.randomElement(using: &rng)!
            if Bool.random(using: &rng) { Self.mutate(&input, seeds: seeds, rng: &rng) }
            Self.check(input, limits: limits, failures: &failures)
        }
        #expect(failures == 0)
    }
}

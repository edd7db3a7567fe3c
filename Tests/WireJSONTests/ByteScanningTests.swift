import Testing
import WireJSON

/// The 8-bytes-at-a-time string scanning of the parser and the writer, through the public
/// API: every byte value at every position of the first two words, followed by every kind
/// of byte, must be handled exactly as a byte-by-byte scan would.
@Suite("8-byte string scanning")
struct ByteScanningTests {
    static let length = 16
    /// Bytes placed after the probe: plain, control, invalid UTF-8 and a quote.
    static let fillers: [UInt8] = [0x61, 0x7E, 0x7F, 0x00, 0x1F, 0xFF, 0x22]

    @Test("parser: every byte value at every position", arguments: 0..<length)
    func parser(position: Int) {
        for value in 0...255 {
            for filler in Self.fillers {
                let probe = UInt8(value)
                let content = [UInt8](repeating: 0x61, count: position) + [probe]
                    + [UInt8](repeating: filler, count: Self.length - position - 1)
                let input = [0x22] + content + [0x22]
                #expect(parseResult(input) == Self.expected(content), "byte \(value) at \(position), then \(filler)")
            }
        }
    }

    /// What a byte-by-byte scan gives for a string with these raw bytes between quotes.
    /// Only holds for the inputs above: the probe is the only byte that may start an escape
    /// or a multi-byte sequence, and no filler is a continuation byte or an escape letter
    /// other than the quote.
    static func expected(_ content: [UInt8]) -> Result<JSONValue, JSONError> {
        var decoded: [UInt8] = []
        var index = 0
        while index < content.count {
            let byte = content[index]
            let offset = index + 1
            switch byte {
            case 0x00..<0x20: return .failure(JSONError(.controlCharacter, at: offset))
            case 0x22: return .failure(JSONError(.trailingData, at: offset + 1))
            case 0x5C:
                guard index + 1 < content.count else {
                    // The backslash escapes the closing quote: the string never ends.
                    return .failure(JSONError(.unexpectedEnd, at: content.count + 2))
                }
                guard content[index + 1] == 0x22 else { return .failure(JSONError(.invalidEscape, at: offset)) }
                decoded.append(0x22)
                index += 2
                continue
            case 0x80...: return .failure(JSONError(.invalidUTF8, at: offset))
            default: decoded.append(byte)
            }
            index += 1
        }
        return .success(.string(String(decoding: decoded, as: UTF8.self)))
    }

    @Test("writer: every ASCII value at every position", arguments: 0..<length)
    func writer(position: Int) throws {
        let fillers: [Unicode.Scalar] = ["a", "~", "\u{7F}", "\u{0}", "\u{1F}", "\"", "\\", "é", "😀"]
        for value in 0..<0x80 {
            for filler in fillers {
                var scalars = String.UnicodeScalarView(repeating: "a", count: position)
                scalars.append(Unicode.Scalar(UInt8(value)))
                scalars.append(contentsOf: repeatElement(filler, count: Self.length - position - 1))
                let string = String(scalars)
                let encoded = JSONValue.string(string).encoded()
                #expect(encoded == Self.referenceEscaped(string), "byte \(value) at \(position), then \(filler)")
                #expect(try JSONParser.parse(encoded) == .string(string))
            }
        }
    }

    /// A byte-at-a-time escaper to compare with.
    static func referenceEscaped(_ string: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in string.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }
}

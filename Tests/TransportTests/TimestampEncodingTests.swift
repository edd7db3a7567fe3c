import Domain
import Testing
@testable import Transport
import WireJSON

/// Times on the wire: `YYYY-MM-DDThh:mm:ss.sssZ` in UTC, written digit by digit into the reply.
struct TimestampEncodingTests {
    static let cases: [(milliseconds: Int64, text: String)] = [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_781_524_800_000, "2026-06-15T12:00:00.000Z"),
        // The last millisecond of a leap day.
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        // Year 0 (1 BC) and the last millisecond of year 9999: still four digits.
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        // Wider years take the general path.
        (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-0001-12-31T23:59:59.999Z"),
    ]

    @Test("a timestamp's text", arguments: cases)
    func timestampsAreWrittenAsISO8601InUTC(_ example: (milliseconds: Int64, text: String)) throws {
        let timestamp = Timestamp(millisecondsSinceEpoch: example.milliseconds)
        #expect(ISO8601.string(from: timestamp) == example.text)
        var writer = JSONWriter()
        writer.beginArray()
        writer.timestamp(timestamp)
        writer.int(7)
        writer.endArray()
        #expect(String(decoding: writer.finish(), as: UTF8.self) == "[\"\(example.text)\",7]")
    }
}

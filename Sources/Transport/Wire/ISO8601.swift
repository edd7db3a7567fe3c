import Domain

/// ISO-8601 UTC formatting of domain timestamps, e.g. `2026-06-15T12:00:00.000Z`.
enum ISO8601 {
    /// The length of ``write(_:quotedInto:)``'s text: `"YYYY-MM-DDThh:mm:ss.sssZ"` in quotes.
    static let quotedLength = 26

    /// The timestamp as `YYYY-MM-DDThh:mm:ss.sssZ`.
    static func string(from timestamp: Timestamp) -> String {
        let quoted = [UInt8](unsafeUninitializedCapacity: quotedLength) { buffer, count in
            count = write(timestamp, quotedInto: buffer) ? quotedLength : 0
        }
        if !quoted.isEmpty { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
        return wideYearString(from: timestamp)
    }

    /// Writes the timestamp as a JSON string, `"YYYY-MM-DDThh:mm:ss.sssZ"`, into the first
    /// ``quotedLength`` bytes of `buffer` and returns true, when its year has four digits
    /// (0…9999); otherwise writes nothing and returns false.
    ///
    /// Digit by digit into the buffer: every reply and event with a time writes one or two, and
    /// making a `String` of each number took ten times the samples (`perf` of `storebench writes`,
    /// where RegisterUser's reply and its event each hold a time; the event's encoding −38 %).
    static func write(_ timestamp: Timestamp, quotedInto buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let (date, millisecondOfDay) = timestamp.civil
        guard (0...9999).contains(date.year), buffer.count >= quotedLength else { return false }
        let millis = Int(millisecondOfDay)
        var index = 0
        func put(_ byte: UInt8) {
            buffer[index] = byte
            index += 1
        }
        func put(_ value: Int, digits: Int) {
            var rest = value
            for place in stride(from: index + digits - 1, through: index, by: -1) {
                buffer[place] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
            }
            index += digits
        }
        put(UInt8(ascii: "\""))
        put(date.year, digits: 4)
        put(UInt8(ascii: "-"))
        put(date.month, digits: 2)
        put(UInt8(ascii: "-"))
        put(date.day, digits: 2)
        put(UInt8(ascii: "T"))
        put(millis / 3_600_000, digits: 2)
        put(UInt8(ascii: ":"))
        put(millis / 60_000 % 60, digits: 2)
        put(UInt8(ascii: ":"))
        put(millis / 1000 % 60, digits: 2)
        put(UInt8(ascii: "."))
        put(millis % 1000, digits: 3)
        put(UInt8(ascii: "Z"))
        put(UInt8(ascii: "\""))
        return true
    }

    /// The text of a timestamp whose year does not have four digits (before year 0 or after
    /// 9999): the year as it comes, at least four digits.
    private static func wideYearString(from timestamp: Timestamp) -> String {
        let (date, millisecondOfDay) = timestamp.civil
        let millis = Int(millisecondOfDay)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))T\(padded(millis / 3_600_000, 2)):"
            + "\(padded(millis / 60_000 % 60, 2)):\(padded(millis / 1000 % 60, 2)).\(padded(millis % 1000, 3))Z"
    }
}

import Domain

/// ISO-8601 UTC formatting of domain timestamps, e.g. `2026-06-15T12:00:00.000Z`.
enum ISO8601 {
    /// The timestamp as `YYYY-MM-DDThh:mm:ss.sssZ`.
    static func string(from timestamp: Timestamp) -> String {
        let (date, millisecondOfDay) = timestamp.civil
        let millis = Int(millisecondOfDay)
        var text = ""
        text.reserveCapacity(24)
        append(date.year, width: 4, to: &text)
        text += "-"
        append(date.month, width: 2, to: &text)
        text += "-"
        append(date.day, width: 2, to: &text)
        text += "T"
        append(millis / 3_600_000, width: 2, to: &text)
        text += ":"
        append(millis / 60_000 % 60, width: 2, to: &text)
        text += ":"
        append(millis / 1000 % 60, width: 2, to: &text)
        text += "."
        append(millis % 1000, width: 3, to: &text)
        text += "Z"
        return text
    }

    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }
}

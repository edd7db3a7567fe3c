import WireJSON

/// Pretty-printed JSON (two-space indent, member order kept), for `--json` output.
func prettyJSON(_ value: JSONValue, indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch value {
    case .object(let object):
        if object.isEmpty { return "{}" }
        let members = object.map { member in
            "\(pad)\(JSONValue.string(member.key).description): \(prettyJSON(member.value, indent: indent + 1))"
        }
        return "{\n" + members.joined(separator: ",\n") + "\n\(closing)}"
    case .array(let array):
        if array.isEmpty { return "[]" }
        let elements = array.map { pad + prettyJSON($0, indent: indent + 1) }
        return "[\n" + elements.joined(separator: ",\n") + "\n\(closing)]"
    default:
        return value.description
    }
}

/// A value for people: strings bare, numbers and Booleans as written, containers as compact JSON.
func plainText(_ value: JSONValue?) -> String {
    guard let value else { return "-" }
    switch value {
    case .string(let string): return string
    case .null: return "-"
    default: return value.description
    }
}

/// `key: value` lines with the values aligned.
func keyValueLines(_ pairs: [(String, String)]) -> String {
    let width = pairs.map { $0.0.count }.max() ?? 0
    return pairs.map { key, value in
        key + ":" + String(repeating: " ", count: width - key.count + 1) + value
    }.joined(separator: "\n")
}

/// A plain-text table: a header row, a rule, then the rows; columns in `rightAligned` are
/// right-aligned (numbers), the others left-aligned.
func renderTable(headers: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
    var widths = headers.map(\.count)
    for row in rows {
        for (column, cell) in row.enumerated() where column < widths.count {
            widths[column] = max(widths[column], cell.count)
        }
    }
    func line(_ cells: [String]) -> String {
        var parts: [String] = []
        for (column, width) in widths.enumerated() {
            let cell = column < cells.count ? cells[column] : ""
            let padding = String(repeating: " ", count: width - cell.count)
            parts.append(rightAligned.contains(column) ? padding + cell : cell + padding)
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
}

/// Seconds for messages: `5 s`, `0.25 s`.
func formatSeconds(_ seconds: Double) -> String {
    if seconds == seconds.rounded() { return "\(Int(seconds)) s" }
    return "\(seconds) s"
}

/// A duration in seconds for people: `42s`, `3m 07s`, `2h 05m 09s`, `1d 02h 03m`.
func formatUptime(_ totalSeconds: Int) -> String {
    let days = totalSeconds / 86_400
    let hours = totalSeconds % 86_400 / 3600
    let minutes = totalSeconds % 3600 / 60
    let seconds = totalSeconds % 60
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    if days > 0 { return "\(days)d \(two(hours))h \(two(minutes))m" }
    if hours > 0 { return "\(hours)h \(two(minutes))m \(two(seconds))s" }
    if minutes > 0 { return "\(minutes)m \(two(seconds))s" }
    return "\(seconds)s"
}

/// Emits an admin result: pretty JSON with `--json`, otherwise `human(result)`.
func emit(_ result: JSONValue, options: GlobalOptions, human: (JSONValue) -> String) {
    printOut(options.json ? prettyJSON(result) : human(result))
}

import WireContract
import WireJSON

/// How the engine's failure messages and violation details put values into words.
enum Wording {
    /// A value for people: strings bare, numbers and Booleans as written, containers as compact
    /// JSON, `-` for nothing.
    static func plain(_ value: JSONValue?) -> String {
        guard let value else { return "-" }
        switch value {
        case .string(let string): return string
        case .null: return "-"
        default: return value.description
        }
    }

    /// `code: message` of an error reply.
    static func error(_ envelope: JSONValue) -> String {
        "\(envelope.replyErrorCode ?? "unknown_error"): \(envelope.replyErrorMessage ?? "(no message)")"
    }

    /// `5 s`, `0.25 s`.
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

import ArgumentParser
import Foundation

/// A length of time on the command line: `60s`, `2m`, `1m30s`, `500ms`, `1h`, or a plain number
/// of seconds (`45`, `2.5`).
struct StressDuration: ExpressibleByArgument, Sendable, CustomStringConvertible {
    /// The length in seconds (positive, finite).
    let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        if let plain = Double(text) {
            guard plain > 0, plain.isFinite else { return nil }
            self.seconds = plain
            return
        }
        var total = 0.0
        var number = ""
        var unit = ""
        var sawPart = false
        func flush() -> Bool {
            guard !number.isEmpty, let value = Double(number), value >= 0 else { return false }
            let scale: Double
            switch unit {
            case "ms": scale = 0.001
            case "s": scale = 1
            case "m": scale = 60
            case "h": scale = 3600
            default: return false
            }
            total += value * scale
            number = ""
            unit = ""
            sawPart = true
            return true
        }
        for character in text {
            if character.isNumber || character == "." {
                if !unit.isEmpty, !flush() { return nil }
                number.append(character)
            } else if character.isLetter {
                unit.append(character)
            } else {
                return nil
            }
        }
        guard flush(), sawPart, total > 0, total.isFinite else { return nil }
        self.seconds = total
    }

    /// Nanoseconds, rounded.
    var nanoseconds: UInt64 { UInt64((seconds * 1e9).rounded()) }

    var description: String {
        if seconds >= 60, seconds == seconds.rounded(), Int(seconds) % 60 == 0 { return "\(Int(seconds) / 60)m" }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(seconds)s"
    }
}

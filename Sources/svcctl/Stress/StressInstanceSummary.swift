import Foundation
import LoadEngine
import WireJSON

/// One instance's part in a stress run, for the report: the clients given to it, what they sent
/// there and how it fared, and whether (and why) the run took it to be down.
struct StressInstanceSummary {
    /// How the operator named it.
    let name: String
    /// Its process id at the start, if it was running.
    let pid: Int?
    /// Clients assigned to it (client *i* to instance *i* mod *n*).
    let clients: Int
    /// What was sent there; `failovers` = clients that moved away from it.
    let tally: StressTally
    /// Why the run took it to be down, if it did.
    let downReason: String?
    /// When, in seconds from the start of the load (negative: before it; `nil`: at the start or never).
    let downAtSecond: Double?
    /// What the shared-store probe found about its idempotency keys, if it was asked.
    let keys: String?

    /// The summary as JSON.
    var json: JSONValue {
        .object(JSONObject([
            ("name", .string(name)), ("pid", pid.map { .int($0) } ?? .null), ("clients", .int(clients)),
            ("sent", .int(tally.sent)), ("answered", .int(tally.answered)), ("ok", .int(tally.ok)),
            ("expectedRefusals", .int(tally.refused)), ("transientRefusals", .int(tally.transient)),
            ("unexpectedErrors", .int(tally.unexpected)), ("outcomeUnknown", .int(tally.outcomeUnknown)), ("timeouts", .int(tally.timedOut)), ("unsentQueueFull", .int(tally.unsent)),
            ("clientsMovedAway", .int(tally.failovers)),
            ("down", downReason.map { .string($0) } ?? .null),
            ("downAtSecond", downAtSecond.map { .double(($0 * 1000).rounded() / 1000) } ?? .null),
            ("idempotencyKeys", keys.map { .string($0) } ?? .null),
        ]))
    }

    /// Its row in the report's instance table.
    var row: [String] {
        var state = "up"
        if let downReason {
            state = "down: \(downReason)"
            if let downAtSecond { state += downAtSecond < 0 ? " (before the load)" : String(format: " (at %.1f s)", downAtSecond) }
        }
        return [
            name, pid.map(String.init) ?? "-", String(clients), StressReport.grouped(tally.sent), StressReport.grouped(tally.ok),
            StressReport.grouped(tally.refused), StressReport.grouped(tally.transient), StressReport.grouped(tally.unexpected),
            StressReport.grouped(tally.timedOut), String(tally.failovers), state,
        ]
    }

    /// Headers of ``row``.
    static let headers = ["INSTANCE", "PID", "CLIENTS", "SENT", "OK", "REFUSED", "TRANSIENT", "ERRORS", "TIMEOUTS", "MOVED AWAY", "STATE"]
}

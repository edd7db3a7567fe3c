import Logging

/// Forwards to a base handler only messages at or above a floor level (and the base's own
/// level): for a library's chatty background logging, such as postgres-nio's line per failed
/// reconnect attempt, while the service logs such events once itself. A library that sets its
/// logger's level moves the floor only: the base handler's level is the process's (see
/// ``LogLevelControl``), which only the operator changes.
struct FloorLogHandler: LogHandler {
    var base: any LogHandler
    var floor: Logger.Level

    var logLevel: Logger.Level {
        get { max(base.logLevel, floor) }
        set { floor = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= floor else { return }
        base.log(event: event)
    }
}

extension Logger {
    /// This logger, passing on only messages at `floor` or above.
    func floored(at floor: Logger.Level) -> Logger {
        let base = handler
        return Logger(label: label) { _ in FloorLogHandler(base: base, floor: floor) }
    }
}

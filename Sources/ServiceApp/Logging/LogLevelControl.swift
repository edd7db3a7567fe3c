import Logging
import Synchronization

/// The process-wide log level, changeable at run time (the admin `setLogLevel` op). Log
/// handlers made by ``handler(label:)`` consult it on every message.
public final class LogLevelControl: Sendable {
    private let current: Mutex<Logger.Level>

    /// Starts at `level`.
    public init(_ level: Logger.Level) {
        current = Mutex(level)
    }

    /// The current level.
    public var level: Logger.Level {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// A stderr handler that follows this control; for `LoggingSystem.bootstrap`.
    public func handler(label: String) -> any LogHandler {
        ControlledLogHandler(base: StreamLogHandler.standardError(label: label), control: self)
    }
}

/// Forwards to a base handler, with the level read from a ``LogLevelControl``.
struct ControlledLogHandler: LogHandler {
    var base: StreamLogHandler
    let control: LogLevelControl

    var logLevel: Logger.Level {
        get { control.level }
        set { control.level = newValue }
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
        base.log(event: event)
    }
}

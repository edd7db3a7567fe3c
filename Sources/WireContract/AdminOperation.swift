/// The operations of the admin endpoint, named as in a request's `op` member. The names of
/// their parameters (``Parameter``) and of their results' members (``Result``) are spelled
/// here too; the members a result shares with `endpoints.json` (`pid`, `admin`, `useCases`)
/// are ``EndpointsFile/Key``'s.
public enum AdminOperation: String, Sendable, Hashable, CaseIterable {
    /// The service's state, version, pid, uptime, tax rate and store.
    case status
    /// The admin and use-case addresses.
    case endpoints
    /// Per-use-case statistics (JSON, or Prometheus text with `format`).
    case stats
    /// Whether every part answers.
    case health
    /// Refuse new use-case requests with `unavailable` until `resume`.
    case drain
    /// Take use-case requests again after `drain`.
    case resume
    /// Stop gracefully.
    case shutdown
    /// Write a consistent copy of the store to `path`.
    case backup
    /// Change the log level to `level`.
    case setLogLevel
    /// `describe`: JSON Schemas of every use case's params and result, every event's data and
    /// the event log, with the error codes each use case can answer.
    case describe

    /// Every operation's name, comma separated, for error messages that list them.
    public static var namesList: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The members of a request's `params`, by operation.
    public enum Parameter {
        /// `format` (`stats`): a ``StatisticsFormat``; JSON when absent.
        public static let format = "format"
        /// `path` (`backup`): the absolute path to write the copy to.
        public static let path = "path"
        /// `level` (`setLogLevel`): a log level's name, `trace` to `critical`.
        public static let level = "level"
    }

    /// The members of the operations' results, and of the objects inside them.
    public enum Result {
        /// `state` (`status`, `drain`, `resume`, `shutdown`): a ``ServiceState``.
        public static let state = "state"
        /// `version` (`status`): svcd's version.
        public static let version = "version"
        /// `uptimeSeconds` (`status`): whole seconds since start.
        public static let uptimeSeconds = "uptimeSeconds"
        /// `taxRate` (`status`): the decimal string new orders are taxed at.
        public static let taxRate = "taxRate"
        /// `store`: in `status`, an object of ``kind`` and ``reachable``; in `health`'s
        /// ``checks``, the store's check.
        public static let store = "store"
        /// `kind` (`status`'s ``store``): `sqlite`, `postgres` or `memory`.
        public static let kind = "kind"
        /// `reachable` (`status`'s ``store``): whether the store answered a trivial read.
        public static let reachable = "reachable"
        /// `requests` (`stats`, per use case): requests answered.
        public static let requests = "requests"
        /// `errors` (`stats`, per use case): answered requests by error code.
        public static let errors = "errors"
        /// `inFlight` (`stats`, per use case): requests accepted and not yet answered.
        public static let inFlight = "inFlight"
        /// `droppedReplies` (`stats`, per use case): replies dropped for vanished peers.
        public static let droppedReplies = "droppedReplies"
        /// `longestWaitMicros` (`stats`, per use case): the longest any request the use case ran
        /// had waited for its turn, from receipt to start, in microseconds (0 before the first).
        public static let longestWaitMicros = "longestWaitMicros"
        /// `latencyMicros` (`stats`, per use case): an object of ``p50``, ``p90``, ``p99`` and
        /// ``max``, in microseconds.
        public static let latencyMicros = "latencyMicros"
        /// `p50` (in ``latencyMicros``).
        public static let p50 = "p50"
        /// `p90` (in ``latencyMicros``).
        public static let p90 = "p90"
        /// `p99` (in ``latencyMicros``).
        public static let p99 = "p99"
        /// `max` (in ``latencyMicros``).
        public static let max = "max"
        /// `refusedClients` (`stats`): clients refused at the use-case endpoints' CURVE handshake,
        /// and requests dropped because their connection's key was removed from the file since.
        public static let refusedClients = "refusedClients"
        /// `callers` (`stats`): answered requests by caller name, then use case (and `EventLog`),
        /// then code (`ok` or the error code).
        public static let callers = "callers"
        /// `events` (`stats`): the live event stream's figures, an object of ``lastWrittenSeq``,
        /// ``lastPublishedSeq``, ``published``, ``subscribers`` and ``lagMillis``.
        public static let events = "events"
        /// `lastWrittenSeq` (in `stats`' ``events``): the highest seq of the log as this instance knows it.
        public static let lastWrittenSeq = "lastWrittenSeq"
        /// `lastPublishedSeq` (in `stats`' ``events``): the highest seq this instance published.
        public static let lastPublishedSeq = "lastPublishedSeq"
        /// `published` (in `stats`' ``events``): events published since start.
        public static let published = "published"
        /// `subscribers` (in `stats`' ``events``): live-stream subscribers connected now.
        public static let subscribers = "subscribers"
        /// `lagMillis` (in `stats`' ``events``): from an event's write to its publication, an
        /// object of ``p50``, ``p90``, ``p99`` and ``max``, in milliseconds.
        public static let lagMillis = "lagMillis"
        /// `text` (`stats` with format `prometheus`): the Prometheus exposition text.
        public static let text = "text"
        /// `healthy` (`health`): whether every check passed.
        public static let healthy = "healthy"
        /// `checks` (`health`): an object of ``store``, ``useCaseEndpoints`` and ``accepting``.
        public static let checks = "checks"
        /// `useCaseEndpoints` (in `health`'s ``checks``): how many use-case endpoints serve.
        public static let useCaseEndpoints = "useCaseEndpoints"
        /// `accepting` (in `health`'s ``checks``): whether use cases take requests (not drained).
        public static let accepting = "accepting"
        /// `path` (`backup`): where the copy was written.
        public static let path = Parameter.path
        /// `bytes` (`backup`): the copy's size.
        public static let bytes = "bytes"
        /// `level` (`setLogLevel`): the log level now.
        public static let level = Parameter.level
    }

    /// The values of `health`'s `checks.store`: the store answered a read (`ok`, or `in memory`
    /// for the memory store), or its storage is full and writes are refused until one succeeds
    /// again (`full`); a store that does not answer is `failed: <reason>`.
    public enum StoreCheck {
        /// The store answered.
        public static let ok = "ok"
        /// The memory store.
        public static let inMemory = "in memory"
        /// Writes find the storage full.
        public static let full = "full"
        /// The prefix of a store that did not answer.
        public static let failedPrefix = "failed: "
    }

    /// The service's state, as ``Result/state`` reports it.
    /// The members of `describe`'s result: `{"protocol", "useCases": [{"name", "write",
    /// "params", "result", "errors"}], "events": [{"type", "data"}], "eventLog": {"params",
    /// "result"}, "errorCodes"}`.
    public enum Description {
        /// `protocol`: the wire protocol's version.
        public static let protocolVersion = "protocol"
        /// `useCases`: one entry per use case, in endpoint order.
        public static let useCases = "useCases"
        /// `name` (a use case's entry).
        public static let name = "name"
        /// `write` (a use case's entry): whether it is a write.
        public static let write = "write"
        /// `params`: the schema of a use case's (or the event log's) params.
        public static let params = "params"
        /// `result`: the schema of a use case's (or the event log's) result.
        public static let result = "result"
        /// `errors` (a use case's entry): the codes it can answer.
        public static let errors = "errors"
        /// `events`: one entry per event type.
        public static let events = "events"
        /// `type` (an event's entry).
        public static let type = "type"
        /// `data` (an event's entry): the schema of its data.
        public static let data = "data"
        /// `eventLog`: the event log's params and result.
        public static let eventLog = "eventLog"
        /// `errorCodes`: every error code of the protocol.
        public static let errorCodes = "errorCodes"
    }

    public enum ServiceState: String, Sendable, Hashable {
        /// Taking use-case requests.
        case running
        /// Answering use-case requests `unavailable` until `resume`.
        case draining
        /// Shutting down (the answer to `shutdown`).
        case stopping
    }

    /// The formats of `stats` (``Parameter/format``).
    public enum StatisticsFormat: String, Sendable, Hashable, CaseIterable {
        /// Per-use-case figures as JSON (the default).
        case json
        /// The metrics registry as Prometheus exposition text, in ``Result/text``.
        case prometheus
    }
}

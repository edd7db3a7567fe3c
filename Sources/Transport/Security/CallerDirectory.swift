import Foundation
import Logging
import Synchronization
import WireContract

/// Who is calling: the callers of `svcd --client-keys FILE` (``CallerList``) as the endpoints and
/// the ZAP handler consult them, or, without the file, one caller, ``CallerGrant/anonymous``.
///
/// The file is read again by ``refresh()``: at every CURVE handshake, and every
/// ``refreshInterval`` by the ZAP handler's thread, so a change (a key added or removed, a name,
/// `allow` or `rate` changed) applies to connections already open within that interval. The
/// endpoints' socket threads read the current ``CallerSnapshot`` through ``snapshot(newerThan:)``:
/// one atomic load per message while nothing changed. A file that cannot be read allows nobody.
///
/// Callers are numbered by name (``name(at:)``), 0 being ``CallerGrant/anonymous``, so requests
/// carry a number and the statistics count by it; names are never forgotten while svcd runs.
public final class CallerDirectory: Sendable {
    /// How often the ZAP handler's thread reads the file again.
    public static let refreshInterval: Duration = .milliseconds(250)
    /// The number of ``CallerGrant/anonymous``.
    static let anonymousIndex = 0

    /// The file; `nil` without `--client-keys`.
    public let path: String?
    private let logger: Logger
    private let generation = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let state: Mutex<State>

    private struct State {
        var text: String?
        var unreadableWarned = false
        var snapshot = CallerSnapshot(callers: [:])
        var names = [CallerGrant.anonymous]
        var lastRead: ContinuousClock.Instant?
        var lastDropWarning: ContinuousClock.Instant?
    }

    /// The callers of the file at `path` (read now), or with `path` `nil` of nobody but
    /// ``CallerGrant/anonymous``. Ignored lines and an unreadable file are logged to `logger`.
    public init(path: String?, logger: Logger) {
        self.path = path
        self.logger = logger
        state = Mutex(State())
        refresh()
    }

    /// Whether requests are checked against the file: `--client-keys` was given.
    public var checksKeys: Bool { path != nil }

    /// Requests dropped unanswered because their connection's key is no longer listed.
    public var droppedRequests: Int { dropped.load(ordering: .relaxed) }

    /// Reads the file again; when its text changed, the new callers replace the old (a caller
    /// whose key and rate are unchanged keeps its bucket) and each line it ignores is logged.
    public func refresh() {
        guard let path else { return }
        let text = try? String(contentsOfFile: path, encoding: .utf8)
        let now = ContinuousClock.now
        let changed: (list: CallerList?, unreadable: Bool) = state.withLock { state in
            state.lastRead = now
            guard text != state.text || (text == nil && !state.unreadableWarned) else { return (nil, false) }
            state.text = text
            guard let text else {
                state.unreadableWarned = true
                state.snapshot = CallerSnapshot(callers: [:])
                return (nil, true)
            }
            state.unreadableWarned = false
            let list = CallerList.parse(text)
            var callers: [String: Caller] = [:]
            let clock = EndpointClock.now
            for line in list.lines {
                let index = state.names.firstIndex(of: line.name) ?? {
                    state.names.append(line.name)
                    return state.names.count - 1
                }()
                let previous = state.snapshot.callers[line.key]
                let bucket = line.rate.map { rate in previous?.bucket.flatMap { $0.rate == rate ? $0 : nil } ?? TokenBucket(rate: rate, now: clock) }
                callers[line.key] = Caller(line: line, index: index, bucket: bucket)
            }
            state.snapshot = CallerSnapshot(callers: callers)
            return (list, false)
        }
        if changed.unreadable {
            logger.warning("the client keys file cannot be read; no client is allowed until it can", metadata: ["path": "\(path)"])
        }
        guard changed.list != nil || changed.unreadable else { return }
        generation.add(1, ordering: .releasing)
        for ignored in changed.list?.ignored ?? [] {
            logger.warning("client keys file: line \(ignored.number) ignored: \(ignored.reason)", metadata: ["path": "\(path)"])
        }
        if let list = changed.list {
            logger.info("client keys file read", metadata: ["path": "\(path)", "callers": "\(list.lines.count)", "ignoredLines": "\(list.ignored.count)"])
        }
    }

    /// Reads the file again if it was last read ``refreshInterval`` ago or more.
    func refreshIfDue() {
        guard path != nil else { return }
        let due = state.withLock { state in state.lastRead.map { ContinuousClock.now - $0 >= Self.refreshInterval } ?? true }
        if due { refresh() }
    }

    /// The current callers with their generation, when newer than `generation` (a socket thread
    /// keeps the last it read; `-1` before the first).
    func snapshot(newerThan seen: Int) -> (CallerSnapshot, generation: Int)? {
        let current = generation.load(ordering: .acquiring)
        guard current != seen else { return nil }
        return (state.withLock { $0.snapshot }, current)
    }

    /// The current caller of `key`, if listed.
    func caller(ofKey key: String) -> Caller? {
        state.withLock { $0.snapshot.callers[key] }
    }

    /// The name of caller number `index`.
    func name(at index: Int) -> String {
        state.withLock { state in index < state.names.count ? state.names[index] : CallerGrant.anonymous }
    }

    /// Counts a request dropped because its key is no longer listed, and warns at most every 5 s.
    func droppedUnlisted(key: String?, endpoint: String) {
        let count = dropped.add(1, ordering: .relaxed).newValue
        let now = ContinuousClock.now
        let warn = state.withLock { state in
            guard state.lastDropWarning.map({ now - $0 >= .seconds(5) }) ?? true else { return false }
            state.lastDropWarning = now
            return true
        }
        if warn {
            logger.warning("request dropped: its connection's key is no longer in the client keys file", metadata: [
                "clientKey": "\(key ?? "none")", "endpoint": "\(endpoint)", "droppedInAll": "\(count)",
            ])
        }
    }
}

/// The callers of one reading of the file, by key.
final class CallerSnapshot: Sendable {
    /// Each listed key's caller.
    let callers: [String: Caller]

    init(callers: [String: Caller]) {
        self.callers = callers
    }
}

/// One listed caller as the endpoints check it.
final class Caller: Sendable {
    /// Its line.
    let line: CallerLine
    /// Its number (``CallerDirectory/name(at:)``).
    let index: Int
    /// Its rate cap, when it has one.
    let bucket: TokenBucket?

    init(line: CallerLine, index: Int, bucket: TokenBucket?) {
        self.line = line
        self.index = index
        self.bucket = bucket
    }
}

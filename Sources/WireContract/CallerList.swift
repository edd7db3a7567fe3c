/// The callers of `svcd --client-keys FILE`: one line per CURVE client key,
/// `KEY [NAME] [allow=A,B,…] [rate=R]`, fields separated by spaces (``CallerGrant``). A line whose
/// first character is `#` is a comment (Z85 keys may contain `#`, so only the first character
/// counts); blank lines are skipped. A line that does not parse is ignored and reported with its
/// number (``ignored``), as is a key listed a second time (its first line counts).
public struct CallerList: Sendable, Hashable {
    /// The callers, in the file's order.
    public var lines: [CallerLine]
    /// The lines ignored, with why.
    public var ignored: [IgnoredLine]

    /// A line of the file that grants nothing, and why.
    public struct IgnoredLine: Sendable, Hashable {
        /// The line's number, from 1.
        public var number: Int
        /// What is wrong with it.
        public var reason: String
    }

    /// The list `text` states.
    public static func parse(_ text: String) -> CallerList {
        var list = CallerList(lines: [], ignored: [])
        var firstLine: [String: Int] = [:]
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            guard line.first != "#" else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !fields.isEmpty else { continue }
            switch CallerLine.parse(fields) {
            case .success(let caller):
                if let first = firstLine[caller.key] {
                    list.ignored.append(IgnoredLine(number: number, reason: "the key is listed on line \(first) already"))
                } else {
                    firstLine[caller.key] = number
                    list.lines.append(caller)
                }
            case .failure(let failure):
                list.ignored.append(IgnoredLine(number: number, reason: failure.reason))
            }
        }
        return list
    }
}

/// One caller: its CURVE public key, its name, the use cases it may use and its rate.
public struct CallerLine: Sendable, Hashable {
    /// The client's public key (Z85, 40 characters).
    public var key: String
    /// The caller's name in statistics, metrics and logs.
    public var name: String
    /// The use cases (and ``CallerGrant/events``) it may use; `nil`: every one.
    public var allowed: Set<String>?
    /// Its requests per second on each instance (burst as many); `nil`: no cap.
    public var rate: Int?

    /// A caller; `name` defaults to the key's first ``CallerGrant/defaultNameLength`` characters.
    public init(key: String, name: String? = nil, allowed: Set<String>? = nil, rate: Int? = nil) {
        self.key = key
        self.name = name ?? String(key.prefix(CallerGrant.defaultNameLength))
        self.allowed = allowed
        self.rate = rate
    }

    /// Whether the caller may use `permission` (a use case's name, or ``CallerGrant/events``).
    public func allows(_ permission: String) -> Bool {
        allowed?.contains(permission) ?? true
    }

    /// The line as the file states it (`allow` in ``CallerGrant/permissions`` order).
    public var text: String {
        var fields = [key, name]
        if let allowed {
            let names = CallerGrant.permissions.filter(allowed.contains)
            fields.append("\(CallerGrant.allowOption)=\(names.joined(separator: String(CallerGrant.allowSeparator)))")
        }
        if let rate { fields.append("\(CallerGrant.rateOption)=\(rate)") }
        return fields.joined(separator: " ")
    }

    /// Why a line does not parse.
    public struct Failure: Error, Sendable, Hashable {
        /// In plain words.
        public var reason: String

        /// A failure saying `reason`.
        public init(reason: String) {
            self.reason = reason
        }
    }

    /// The caller of a line's fields (at least one).
    public static func parse(_ fields: [String]) -> Result<CallerLine, Failure> {
        guard isKey(fields[0]) else {
            return .failure(Failure(reason: "\"\(fields[0].prefix(48))\" is not a 40-character Z85 key"))
        }
        var name: String?
        var allowed: Set<String>?
        var rate: Int?
        for (index, field) in fields.enumerated().dropFirst() {
            guard let equals = field.firstIndex(of: "=") else {
                guard index == 1 else { return .failure(Failure(reason: "\"\(field)\": the name must come right after the key, and only one")) }
                name = field
                continue
            }
            let option = String(field[..<equals]), value = String(field[field.index(after: equals)...])
            switch option {
            case CallerGrant.allowOption:
                guard allowed == nil else { return .failure(Failure(reason: "\(option)= is given twice")) }
                let names = value.split(separator: CallerGrant.allowSeparator).map(String.init)
                let known = Set(CallerGrant.permissions)
                if let unknown = names.first(where: { !known.contains($0) }) {
                    return .failure(Failure(reason: "\(option)= names \"\(unknown)\", which is neither a use case nor \(CallerGrant.events)"))
                }
                guard !names.isEmpty else { return .failure(Failure(reason: "\(option)= lists nothing")) }
                allowed = Set(names)
            case CallerGrant.rateOption:
                guard rate == nil else { return .failure(Failure(reason: "\(option)= is given twice")) }
                guard let parsed = Int(value), parsed > 0 else {
                    return .failure(Failure(reason: "\(option)= must be a positive integer of requests per second, not \"\(value)\""))
                }
                rate = parsed
            default:
                return .failure(Failure(reason: "unknown option \"\(option)=\" (known: \(CallerGrant.allowOption)=, \(CallerGrant.rateOption)=)"))
            }
        }
        return .success(CallerLine(key: fields[0], name: name, allowed: allowed, rate: rate))
    }

    /// Whether `text` is a CURVE public key in Z85: 40 characters of the Z85 alphabet.
    public static func isKey(_ text: String) -> Bool {
        text.utf8.count == keyLength && text.utf8.allSatisfy(z85Alphabet.contains)
    }

    /// A Z85 key's length.
    static let keyLength = 40
    /// The Z85 alphabet (ZeroMQ RFC 32).
    static let z85Alphabet = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)
}

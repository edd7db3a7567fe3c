/// A point in time: milliseconds since the Unix epoch, UTC.
///
/// The Domain keeps time as a plain integer so it needs no Foundation; the transport formats
/// it as ISO-8601 and the clock port supplies "now".
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSinceEpoch: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// Creates a timestamp from a UTC calendar date and time of day.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.millisecondsSinceEpoch = seconds * 1000 + Int64(millisecond)
    }

    /// The timestamp moved by a number of milliseconds.
    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
    }

    /// The timestamp moved by whole days of 24 hours.
    public func adding(days: Int) -> Timestamp {
        adding(milliseconds: Int64(days) * Timestamp.millisecondsPerDay)
    }

    /// The same time of day, `months` calendar months later; the day is clamped to the end of
    /// a shorter month (Jan 31 + 1 month = Feb 28 or 29).
    public func adding(months: Int) -> Timestamp {
        let (date, millisecondOfDay) = civil
        let shifted = date.adding(months: months)
        return Timestamp(millisecondsSinceEpoch: Int64(shifted.daysSinceEpoch) * Timestamp.millisecondsPerDay + millisecondOfDay)
    }

    /// The same time of day, `years` calendar years later (Feb 29 becomes Feb 28 in a common year).
    public func adding(years: Int) -> Timestamp {
        adding(months: years * 12)
    }

    /// The UTC calendar date and the milliseconds elapsed since that day's midnight.
    public var civil: (date: CivilDate, millisecondOfDay: Int64) {
        let days = millisecondsSinceEpoch.floorDivided(by: Timestamp.millisecondsPerDay)
        let rest = millisecondsSinceEpoch - days * Timestamp.millisecondsPerDay
        return (CivilDate(daysSinceEpoch: Int(days)), rest)
    }

    /// Milliseconds in a day of 24 hours.
    public static let millisecondsPerDay: Int64 = 86_400_000

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, so dates before 1970 map to the right day.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

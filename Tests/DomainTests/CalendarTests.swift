import Domain
import Persistence
import RestaurantTesting
import Testing

@Suite("CivilDate")
struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0),
        (1970, 1, 2, 1),
        (1969, 12, 31, -1),
        (2000, 1, 1, 10_957),
        (2000, 2, 29, 11_016),
        (2000, 3, 1, 11_017),
        (2024, 2, 29, 19_782),
        (2026, 6, 15, 20_619),
        (1900, 3, 1, -25_508),
        (1600, 2, 29, -135_081),
        (1, 1, 1, -719_162),
    ])
    func knownDatesMapToDaysSinceEpochAndBack(year: Int, month: Int, day: Int, days: Int) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == date)
    }

    @Test func everyDayFrom1600To2400RoundTripsAndFollowsTheCalendar() {
        let start = CivilDate(year: 1600, month: 1, day: 1).daysSinceEpoch
        let end = CivilDate(year: 2400, month: 12, day: 31).daysSinceEpoch
        var previous = CivilDate(daysSinceEpoch: start - 1)
        var mismatches = 0
        for days in start...end {
            let date = CivilDate(daysSinceEpoch: days)
            if date.daysSinceEpoch != days { mismatches += 1 }
            // The next day is either day+1 in the same month, or the 1st of the next month.
            let continues = date.year == previous.year && date.month == previous.month && date.day == previous.day + 1
            let newMonth = date.day == 1 && previous.day == CivilDate.daysIn(month: previous.month, year: previous.year)
                && (date.month == previous.month + 1 && date.year == previous.year || date.month == 1 && previous.month == 12 && date.year == previous.year + 1)
            if !(continues || newMonth) { mismatches += 1 }
            previous = date
        }
        #expect(mismatches == 0)
    }

    @Test func leapYearsFollowTheGregorianRule() {
        #expect(CivilDate.isLeap(2024))
        #expect(CivilDate.isLeap(2000))
        #expect(CivilDate.isLeap(1600))
        #expect(!CivilDate.isLeap(1900))
        #expect(!CivilDate.isLeap(2100))
        #expect(!CivilDate.isLeap(2026))
        #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2026) == 28)
        #expect(CivilDate.daysIn(month: 4, year: 2026) == 30)
        #expect(CivilDate.daysIn(month: 12, year: 2026) == 31)
    }

    @Test(arguments: [
        ((2026, 1, 31), 1, (2026, 2, 28)),
        ((2024, 1, 31), 1, (2024, 2, 29)),
        ((2026, 3, 31), -1, (2026, 2, 28)),
        ((2026, 3, 31), 1, (2026, 4, 30)),
        ((2026, 12, 15), 1, (2027, 1, 15)),
        ((2026, 1, 15), -1, (2025, 12, 15)),
        ((2024, 2, 29), 12, (2025, 2, 28)),
        ((2024, 2, 29), 48, (2028, 2, 29)),
        ((2026, 6, 15), 120, (2036, 6, 15)),
        ((2026, 6, 15), 0, (2026, 6, 15)),
        ((1, 1, 15), -1, (0, 12, 15)),
        ((0, 1, 15), -13, (-2, 12, 15)),
    ])
    func addingMonthsClampsTheDayToTheTargetMonth(from: (Int, Int, Int), months: Int, to: (Int, Int, Int)) {
        let start = CivilDate(year: from.0, month: from.1, day: from.2)
        #expect(start.adding(months: months) == CivilDate(year: to.0, month: to.1, day: to.2))
    }

    @Test func datesAreOrderedChronologically() {
        #expect(CivilDate(year: 2025, month: 12, day: 31) < CivilDate(year: 2026, month: 1, day: 1))
        #expect(CivilDate(year: 2026, month: 1, day: 31) < CivilDate(year: 2026, month: 2, day: 1))
        #expect(!(CivilDate(year: 2026, month: 2, day: 1) < CivilDate(year: 2026, month: 2, day: 1)))
    }
}

@Suite("Timestamp")
struct TimestampTests {
    @Test func epochIsZero() {
        #expect(Timestamp(year: 1970, month: 1, day: 1).millisecondsSinceEpoch == 0)
    }

    @Test func calendarFieldsMapToMilliseconds() {
        #expect(Timestamp(year: 2026, month: 6, day: 15, hour: 12).millisecondsSinceEpoch == 1_781_524_800_000)
        #expect(Timestamp(year: 2000, month: 2, day: 29, hour: 23, minute: 59, second: 59, millisecond: 999).millisecondsSinceEpoch == 951_868_799_999)
        #expect(Timestamp(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999).millisecondsSinceEpoch == -1)
    }

    @Test func civilOfPre1970TimesUsesFloorDivision() {
        let (date, millisecondOfDay) = Timestamp(millisecondsSinceEpoch: -1).civil
        #expect(date == CivilDate(year: 1969, month: 12, day: 31))
        #expect(millisecondOfDay == 86_399_999)
        let (exactDay, zero) = Timestamp(millisecondsSinceEpoch: -86_400_000).civil
        #expect(exactDay == CivilDate(year: 1969, month: 12, day: 31))
        #expect(zero == 0)
    }

    @Test(arguments: [
        (2024, 2, 29, 13, 45, 7, 123),
        (1969, 12, 31, 0, 0, 0, 1),
        (1900, 2, 28, 23, 59, 59, 999),
        (1600, 2, 29, 6, 0, 0, 0),
        (2100, 3, 1, 0, 0, 0, 0),
        (1970, 1, 1, 0, 0, 0, 0),
    ])
    func calendarTimesRoundTripThroughCivil(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let timestamp = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        let (date, millisecondOfDay) = timestamp.civil
        #expect(date == CivilDate(year: year, month: month, day: day))
        #expect(millisecondOfDay == Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond))
    }

    @Test func addingMonthsKeepsTheTimeOfDayAndClamps() {
        let jan31 = Timestamp(year: 2026, month: 1, day: 31, hour: 10, minute: 30, second: 5, millisecond: 7)
        #expect(jan31.adding(months: 1) == Timestamp(year: 2026, month: 2, day: 28, hour: 10, minute: 30, second: 5, millisecond: 7))
        #expect(jan31.adding(months: 2) == Timestamp(year: 2026, month: 3, day: 31, hour: 10, minute: 30, second: 5, millisecond: 7))
        let leapJan31 = Timestamp(year: 2028, month: 1, day: 31, hour: 23, minute: 59)
        #expect(leapJan31.adding(months: 1) == Timestamp(year: 2028, month: 2, day: 29, hour: 23, minute: 59))
    }

    @Test func addingMonthsWorksBefore1970() {
        let date = Timestamp(year: 1969, month: 12, day: 31, hour: 18)
        #expect(date.adding(months: 2) == Timestamp(year: 1970, month: 2, day: 28, hour: 18))
        #expect(Timestamp(year: 1970, month: 3, day: 31, hour: 1).adding(months: -1) == Timestamp(year: 1970, month: 2, day: 28, hour: 1))
    }

    @Test func addingYearsTurnsFebruary29IntoFebruary28() {
        let leapDay = Timestamp(year: 2024, month: 2, day: 29, hour: 8)
        #expect(leapDay.adding(years: 1) == Timestamp(year: 2025, month: 2, day: 28, hour: 8))
        #expect(leapDay.adding(years: 4) == Timestamp(year: 2028, month: 2, day: 29, hour: 8))
        #expect(World.start.adding(years: 3) == Timestamp(year: 2029, month: 6, day: 15, hour: 12))
    }

    @Test func addingDaysAndMillisecondsIsPlainArithmetic() {
        #expect(World.start.adding(days: 1).millisecondsSinceEpoch - World.start.millisecondsSinceEpoch == 86_400_000)
        #expect(World.start.adding(days: -30) == Timestamp(year: 2026, month: 5, day: 16, hour: 12))
        #expect(World.start.adding(milliseconds: -1) < World.start)
    }
}

@Suite("ManualWallClock")
struct ManualWallClockTests {
    @Test func clockStandsStillUntilMoved() {
        let clock = ManualWallClock(World.start)
        #expect(clock.now() == World.start)
        #expect(clock.now() == World.start)
        clock.advance(milliseconds: 1500)
        #expect(clock.now() == World.start.adding(milliseconds: 1500))
        clock.set(Timestamp(year: 2000, month: 1, day: 1))
        #expect(clock.now() == Timestamp(year: 2000, month: 1, day: 1))
    }

    @Test func fixedClockAlwaysShowsItsTime() {
        let clock = FixedWallClock(World.start)
        #expect(clock.now() == World.start)
        #expect(clock.now() == World.start)
    }

    @Test func sequentialIdsArePredictable() {
        let ids = SequentialIdentifierGenerator(prefix: "x")
        #expect(ids.makeIdentifier() == "x-000001")
        #expect(ids.makeIdentifier() == "x-000002")
    }
}

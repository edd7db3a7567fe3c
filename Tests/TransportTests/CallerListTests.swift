import Foundation
import Logging
import Testing
@testable import Transport
import WireContract

/// The callers file (`KEY [NAME] [allow=A,B,…] [rate=R]`) as svcd reads it, the rate cap's token
/// bucket, and the directory that reads the file again when it changes.
@Suite struct CallerListTests {
    private static let keyA = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    private static let keyB = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"

    @Test func aLineGivesTheKeyNameAllowListAndRateWithDefaultsForWhatItOmits() {
        let list = CallerList.parse("""
            # a comment
            \(Self.keyA) kitchen allow=GetRestaurant,events rate=50

            \(Self.keyB)
            """)
        #expect(list.ignored.isEmpty)
        #expect(list.lines == [
            CallerLine(key: Self.keyA, name: "kitchen", allowed: ["GetRestaurant", "events"], rate: 50),
            CallerLine(key: Self.keyB, name: "Yne@$w-v", allowed: nil, rate: nil),
        ])
        #expect(list.lines[0].allows("events") && list.lines[0].allows("GetRestaurant") && !list.lines[0].allows("PlaceOrder"))
        #expect(list.lines[1].allows("PlaceOrder") && list.lines[1].allows("events"))
    }

    @Test func aLineThatDoesNotParseIsIgnoredAndNamedByItsNumber() {
        let lines = [
            "not-a-key",
            "\(Self.keyA) x rate=0",
            "\(Self.keyA) x rate=fast",
            "\(Self.keyA) x allow=GetRestaurant,Teleport",
            "\(Self.keyA) x allow=",
            "\(Self.keyA) x colour=blue",
            "\(Self.keyA) x y",
            "\(Self.keyA) rate=1 x",
            "\(Self.keyA) x rate=1 rate=2",
            "\(Self.keyB) fine",
            "\(Self.keyB) twice",
        ]
        let list = CallerList.parse(lines.joined(separator: "\n"))
        #expect(list.lines == [CallerLine(key: Self.keyB, name: "fine")])
        #expect(list.ignored.map(\.number) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11])
        #expect(list.ignored[3].reason.contains("Teleport"), "\(list.ignored[3])")
        #expect(list.ignored[9].reason.contains("line 10"), "\(list.ignored[9])")
    }

    @Test func aLineWrittenBackParsesToTheSameCaller() {
        let caller = CallerLine(key: Self.keyA, name: "billing", allowed: ["events", "PlaceOrder"], rate: 7)
        #expect(caller.text == "\(Self.keyA) billing allow=PlaceOrder,events rate=7")
        #expect(CallerList.parse(caller.text).lines == [caller])
    }

    @Test func theBucketAllowsItsBurstThenItsRate() {
        let start = Duration.seconds(100)
        let bucket = TokenBucket(rate: 10, now: start)
        #expect((0..<10).allSatisfy { _ in bucket.take(now: start) })
        #expect(!bucket.take(now: start))
        // 0.25 s later: two and a half tokens, so two requests.
        let later = start + .milliseconds(250)
        #expect(bucket.take(now: later) && bucket.take(now: later) && !bucket.take(now: later))
        // Never more than the burst, however long it rested.
        let rested = later + .seconds(60)
        #expect((0..<10).allSatisfy { _ in bucket.take(now: rested) })
        #expect(!bucket.take(now: rested))
    }

    @Test func theDirectoryReadsAChangedFileAndKeepsABucketWhoseRateIsUnchanged() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("callers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "\(Self.keyA) kitchen rate=5\n".write(toFile: path, atomically: true, encoding: .utf8)
        let directory = CallerDirectory(path: path, logger: Logger(label: "test"))
        let (first, generation) = try #require(directory.snapshot(newerThan: -1))
        let bucket = try #require(first.callers[Self.keyA]?.bucket)
        #expect(directory.snapshot(newerThan: generation) == nil, "nothing changed")
        directory.refresh()
        #expect(directory.snapshot(newerThan: generation) == nil, "the same text is no change")

        try "\(Self.keyA) kitchen rate=5\n\(Self.keyB) billing\n".write(toFile: path, atomically: true, encoding: .utf8)
        directory.refresh()
        let (second, _) = try #require(directory.snapshot(newerThan: generation))
        #expect(second.callers[Self.keyA]?.bucket === bucket, "an unchanged rate keeps its tokens")
        let billing = try #require(second.callers[Self.keyB])
        #expect(directory.name(at: billing.index) == "billing" && directory.name(at: 0) == CallerGrant.anonymous)

        try FileManager.default.removeItem(atPath: path)
        directory.refresh()
        #expect(directory.caller(ofKey: Self.keyA) == nil, "an unreadable file allows nobody")
    }
}

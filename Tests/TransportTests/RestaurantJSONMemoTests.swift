import Domain
import Testing
import WireJSON
@testable import Transport

/// Restaurants written into replies from kept JSON: always what writing them afresh gives.
@Suite("Restaurants' JSON kept between replies")
struct RestaurantJSONMemoTests {
    static func restaurant(_ id: String, reviews: Int = 2, hours: [String] = ["Mon 9-17"], website: String? = nil) -> Restaurant {
        Restaurant(
            id: RestaurantID(id), name: "Chez \"Memo\"\t\(id)", cuisine: "Français", priceLevel: 3, address: "1 Rue \\ Test",
            latitude: 48.8566, longitude: 2.3522, website: website, openingHours: hours, ratingTotal: reviews * 4 + 1, reviewCount: reviews,
            createdAt: Timestamp(millisecondsSinceEpoch: 1_764_000_000_000))
    }

    /// The restaurant's object written without the memo, field by field.
    static func fresh(_ restaurant: Restaurant, isFavorite: Bool? = nil) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.restaurantMembers(restaurant)
        if let isFavorite {
            writer.key(literal: "isFavorite"); writer.bool(isFavorite)
        }
        writer.endObject()
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    static func reply(_ restaurant: Restaurant, isFavorite: Bool? = nil) -> String {
        var writer = JSONWriter()
        writer.restaurant(restaurant, isFavorite: isFavorite)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    @Test func aKeptRestaurantIsWrittenAsWritingItAfreshWouldWithOrWithoutIsFavorite() throws {
        let restaurant = Self.restaurant("r-memo-same")
        for _ in 0..<3 {
            #expect(Self.reply(restaurant) == Self.fresh(restaurant))
            #expect(Self.reply(restaurant, isFavorite: true) == Self.fresh(restaurant, isFavorite: true))
            #expect(Self.reply(restaurant, isFavorite: false) == Self.fresh(restaurant, isFavorite: false))
        }
        let parsed = try JSONParser.parse(Array(Self.reply(restaurant, isFavorite: true).utf8))
        #expect(parsed["name"] == .string("Chez \"Memo\"\tr-memo-same"))
        #expect(parsed["isFavorite"] == .bool(true))
    }

    @Test func aRestaurantThatChangedIsNeverAnsweredAsItWas() {
        let before = Self.restaurant("r-memo-changed", reviews: 2)
        _ = Self.reply(before)
        for changed in [
            Self.restaurant("r-memo-changed", reviews: 3), Self.restaurant("r-memo-changed", hours: []),
            Self.restaurant("r-memo-changed", website: "https://example.com"),
        ] {
            #expect(Self.reply(changed) == Self.fresh(changed))
            #expect(Self.reply(changed) != Self.fresh(before))
        }
        #expect(Self.reply(before) == Self.fresh(before))
    }

    @Test func theMemoKeepsNoMoreRestaurantsThanItsCapacity() {
        let memo = RestaurantJSONMemo(capacity: 3)
        for number in 0..<10 {
            let restaurant = Self.restaurant("r-memo-\(number)")
            let members = memo.withMembers(of: restaurant) { String(decoding: $0, as: UTF8.self) }
            #expect("{\(members)}" == Self.fresh(restaurant))
            #expect(memo.count <= 3)
        }
        #expect(memo.count == 3)
    }
}

import Domain
import RestaurantTesting
import Testing

private func restaurant(
    name: String = "Name", priceLevel: Int = 2, address: String = "Address",
    latitude: Double = 0, longitude: Double = 0, ratingTotal: Int = 0, reviewCount: Int = 0
) -> Restaurant {
    Restaurant(
        id: RestaurantID("r"), name: name, cuisine: "Any", priceLevel: priceLevel, address: address,
        latitude: latitude, longitude: longitude, ratingTotal: ratingTotal, reviewCount: reviewCount,
        createdAt: World.start
    )
}

@Suite("Restaurant entity rules")
struct RestaurantEntityTests {
    @Test func aRestaurantWithSaneFieldsIsValid() {
        #expect(restaurant().isValid)
    }

    @Test(arguments: [1, 4])
    func priceLevelsOneAndFourAreValid(_ level: Int) {
        #expect(restaurant(priceLevel: level).isValid)
    }

    @Test(arguments: [0, 5, -1, 9])
    func priceLevelsOutsideOneToFourAreInvalid(_ level: Int) {
        #expect(!restaurant(priceLevel: level).isValid)
    }

    @Test(arguments: [-90.0, 90.0])
    func latitudeAtTheBoundsIsValid(_ latitude: Double) {
        #expect(restaurant(latitude: latitude).isValid)
    }

    @Test(arguments: [-90.0001, 90.0001, Double.nan, Double.infinity, -Double.infinity])
    func latitudeBeyondTheBoundsOrNotFiniteIsInvalid(_ latitude: Double) {
        #expect(!restaurant(latitude: latitude).isValid)
    }

    @Test(arguments: [-180.0, 180.0])
    func longitudeAtTheBoundsIsValid(_ longitude: Double) {
        #expect(restaurant(longitude: longitude).isValid)
    }

    @Test(arguments: [-180.0001, 180.0001, Double.nan, Double.infinity])
    func longitudeBeyondTheBoundsOrNotFiniteIsInvalid(_ longitude: Double) {
        #expect(!restaurant(longitude: longitude).isValid)
    }

    @Test func blankNameOrAddressIsInvalid() {
        #expect(!restaurant(name: "").isValid)
        #expect(!restaurant(name: " \t").isValid)
        #expect(!restaurant(address: "").isValid)
        #expect(!restaurant(address: "  ").isValid)
    }

    @Test func ratingAboveFiveOrBelowZeroIsInvalid() {
        #expect(restaurant(ratingTotal: 5, reviewCount: 1).isValid)
        #expect(!restaurant(ratingTotal: 6, reviewCount: 1).isValid)
        #expect(!restaurant(ratingTotal: -1, reviewCount: 1).isValid)
    }

    @Test func ratingIsTheMeanAndZeroWithoutReviews() {
        #expect(restaurant().rating == 0)
        #expect(restaurant(ratingTotal: 13, reviewCount: 3).rating == Double(13) / Double(3))
        #expect(restaurant(ratingTotal: 9, reviewCount: 2).rating == 4.5)
    }

    @Test func addingAReviewUpdatesTotalsAndKeepsIdentity() {
        let base = restaurant(ratingTotal: 9, reviewCount: 2)
        let after = base.addingReview(rating: 3)
        #expect(after.ratingTotal == 12)
        #expect(after.reviewCount == 3)
        #expect(after.rating == 4)
        #expect(after.id == base.id)
        #expect(after.name == base.name)
        #expect(after.createdAt == base.createdAt)
    }

    @Test(arguments: [
        (0, 0, "0.0"),
        (5, 1, "5.0"),
        (13, 3, "4.3"),   // 4.333…
        (14, 3, "4.7"),   // 4.666…
        (17, 4, "4.3"),   // 4.25 rounds half up
        (9, 2, "4.5"),
        (1, 1, "1.0"),
        (199, 40, "5.0"), // 4.975
    ])
    func displayRatingRoundsToOneDecimal(total: Int, count: Int, expected: String) {
        #expect(restaurant(ratingTotal: total, reviewCount: count).displayRating == expected)
    }

    @Test(arguments: [(1, "$"), (2, "$$"), (3, "$$$"), (4, "$$$$")])
    func displayPriceIsOneDollarSignPerLevel(level: Int, expected: String) {
        #expect(restaurant(priceLevel: level).displayPrice == expected)
    }

    @Test func highlyRatedMeansAtLeast4Point5FromAtLeastOneReview() {
        #expect(restaurant(ratingTotal: 9, reviewCount: 2).isHighlyRated)        // 4.5
        #expect(restaurant(ratingTotal: 5, reviewCount: 1).isHighlyRated)        // 5.0
        #expect(!restaurant(ratingTotal: 449, reviewCount: 100).isHighlyRated)   // 4.49
        #expect(!restaurant().isHighlyRated)                                     // no reviews
    }
}

@Suite("RestaurantQuery")
struct RestaurantQueryTests {
    private func make(name: String, cuisine: String, level: Int = 2, total: Int = 0, count: Int = 0) -> Restaurant {
        Restaurant(id: RestaurantID(name), name: name, cuisine: cuisine, priceLevel: level, address: "A", latitude: 0, longitude: 0, ratingTotal: total, reviewCount: count, createdAt: World.start)
    }

    @Test func queryMatchesCuisineExactlyIgnoringCase() {
        let query = RestaurantQuery(cuisine: "ITALIAN")
        #expect(query.matches(make(name: "a", cuisine: "italian")))
        #expect(query.matches(make(name: "a", cuisine: "Italian")))
        #expect(!query.matches(make(name: "a", cuisine: "Italian Fusion")))
    }

    @Test func queryTextMatchesSubstringOfNameOrCuisine() {
        let query = RestaurantQuery(text: "SUSH")
        #expect(query.matches(make(name: "The Sushi Bar", cuisine: "Japanese")))
        #expect(query.matches(make(name: "Ocean", cuisine: "sushi")))
        #expect(!query.matches(make(name: "Ocean", cuisine: "Seafood")))
    }

    @Test func queryBoundsAreInclusive() {
        let query = RestaurantQuery(minRating: 4, maxPriceLevel: 3)
        #expect(query.matches(make(name: "a", cuisine: "x", level: 3, total: 4, count: 1)))
        #expect(!query.matches(make(name: "a", cuisine: "x", level: 4, total: 4, count: 1)))
        #expect(!query.matches(make(name: "a", cuisine: "x", level: 3, total: 399, count: 100)))
    }

    @Test func queryNeverMatchesInvalidRestaurants() {
        #expect(!RestaurantQuery().matches(make(name: "a", cuisine: "x", level: 9)))
        #expect(RestaurantQuery().matches(make(name: "a", cuisine: "x", level: 4)))
    }
}

@Suite("Review recency")
struct ReviewRecencyTests {
    private func review(createdAt: Timestamp) -> Review {
        Review(id: ReviewID("v"), restaurantId: RestaurantID("r"), userId: UserID("u"), rating: 3, text: "", createdAt: createdAt)
    }

    @Test func aReview29Days23Hours59MinutesOldIsRecent() {
        let now = World.start
        let age: Int64 = 29 * 86_400_000 + 23 * 3_600_000 + 59 * 60_000
        #expect(review(createdAt: now.adding(milliseconds: -age)).isRecent(at: now))
    }

    @Test func aReviewOneMillisecondYoungerThan30DaysIsRecent() {
        let now = World.start
        #expect(review(createdAt: now.adding(days: -30).adding(milliseconds: 1)).isRecent(at: now))
    }

    @Test func aReviewExactly30DaysOldIsNotRecent() {
        let now = World.start
        #expect(!review(createdAt: now.adding(days: -30)).isRecent(at: now))
        #expect(!review(createdAt: now.adding(days: -31)).isRecent(at: now))
    }

    @Test func aReviewWrittenNowIsRecent() {
        #expect(review(createdAt: World.start).isRecent(at: World.start))
    }
}

@Suite("RestaurantScore formula")
struct RestaurantScoreTests {
    @Test func scoreIsZeroForNothing() {
        #expect(RestaurantScore(rating: 0, reviewCount: 0, recentReviewCount: 0).value == 0)
    }

    @Test func scoreWeighsRatingByHalf() {
        #expect(RestaurantScore(rating: 4, reviewCount: 0, recentReviewCount: 0).value == 2)
    }

    @Test func reviewCountPartGrowsLinearlyUpTo100ThenSaturates() {
        #expect(RestaurantScore(rating: 0, reviewCount: 50, recentReviewCount: 0).value == 0.125)
        #expect(RestaurantScore(rating: 0, reviewCount: 99, recentReviewCount: 0).value == 0.99 * 0.25)
        #expect(RestaurantScore(rating: 0, reviewCount: 100, recentReviewCount: 0).value == 0.25)
        #expect(RestaurantScore(rating: 0, reviewCount: 150, recentReviewCount: 0).value == 0.25)
        #expect(RestaurantScore(rating: 0, reviewCount: 10_000, recentReviewCount: 0).value == 0.25)
    }

    @Test func recentPartGrowsLinearlyUpTo20ThenSaturates() {
        #expect(RestaurantScore(rating: 0, reviewCount: 0, recentReviewCount: 10).value == 0.125)
        #expect(RestaurantScore(rating: 0, reviewCount: 0, recentReviewCount: 20).value == 0.25)
        #expect(RestaurantScore(rating: 0, reviewCount: 0, recentReviewCount: 25).value == 0.25)
    }

    @Test func maximumScoreIsThree() {
        #expect(RestaurantScore(rating: 5, reviewCount: 500, recentReviewCount: 500).value == 3)
    }

    @Test func scoreCombinesAllThreeParts() {
        #expect(RestaurantScore(rating: 4.5, reviewCount: 150, recentReviewCount: 25).value == 2.75)
        #expect(RestaurantScore(rating: 3, reviewCount: 50, recentReviewCount: 5).value == 1.5 + 0.125 + 0.0625)
    }
}

@Suite("User entity rules")
struct UserEntityTests {
    private func user(until: Timestamp? = nil) -> User {
        User(id: UserID("u"), name: "U", email: EmailAddress("u@example.com")!, joinedAt: World.start, subscriptionActiveUntil: until)
    }

    @Test func withoutSubscriptionThereIsNoPremium() {
        #expect(!user().canAccessPremiumContent(at: World.start))
        #expect(!user().hasActiveSubscription(at: World.start))
    }

    @Test func premiumLastsUntilJustBeforeTheEnd() {
        let end = World.start.adding(days: 10)
        #expect(user(until: end).canAccessPremiumContent(at: end.adding(milliseconds: -1)))
        #expect(!user(until: end).canAccessPremiumContent(at: end))
        #expect(!user(until: end).canAccessPremiumContent(at: end.adding(milliseconds: 1)))
    }

    @Test func newUsersAreActive() {
        #expect(user().isActive)
    }

    @Test func membershipTierBoundariesUseCalendarYears() {
        let joined = World.start
        #expect(MembershipTier.forMember(joinedAt: joined, now: joined) == .bronze)
        #expect(MembershipTier.forMember(joinedAt: joined, now: joined.adding(years: 1).adding(milliseconds: -1)) == .bronze)
        #expect(MembershipTier.forMember(joinedAt: joined, now: joined.adding(years: 1)) == .silver)
        #expect(MembershipTier.forMember(joinedAt: joined, now: joined.adding(years: 3).adding(milliseconds: -1)) == .silver)
        #expect(MembershipTier.forMember(joinedAt: joined, now: joined.adding(years: 3)) == .gold)
        #expect(user().membershipTier(at: joined.adding(years: 3)) == .gold)
    }

    @Test func profileReflectsTierAndPremiumAtTheGivenMoment() {
        let now = World.start.adding(years: 1)
        let profile = UserProfile(user: user(until: now.adding(days: 1)), now: now)
        #expect(profile.membershipTier == .silver)
        #expect(profile.canAccessPremiumContent)
        #expect(profile.name == "U")
        #expect(profile.email.value == "u@example.com")
    }
}

@Suite("EmailAddress rules")
struct EmailAddressTests {
    @Test func emailIsTrimmed() {
        #expect(EmailAddress("  a@b.co \n")?.value == "a@b.co")
    }

    /// The rules as first written, over Characters: the reference the byte-level reading of
    /// ASCII addresses must agree with.
    private static func referenceIsValid(_ candidate: String) -> Bool {
        guard !candidate.isEmpty, candidate.count <= EmailAddress.maximumLength,
              !candidate.contains(where: \.isWhitespace) else { return false }
        let parts = candidate.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        return !local.isEmpty && domain.contains(".") && domain.first != "." && domain.last != "."
    }

    @Test func everyShortAddressIsJudgedAsTheCharacterRulesJudgeIt() {
        // Every string of up to 5 of these pieces (37,449 strings), ASCII ones and others.
        let pieces = ["a", "@", ".", " ", "\t", "\r\n", "é", "\u{301}"]
        var strings = [""]
        var frontier = [""]
        for _ in 1...5 {
            frontier = frontier.flatMap { prefix in pieces.map { prefix + $0 } }
            strings += frontier
        }
        var disagreements: [String] = []
        for string in strings where EmailAddress.isValid(string) != Self.referenceIsValid(string) {
            disagreements.append(string)
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { $0.debugDescription })")
        #expect(strings.contains { EmailAddress.isValid($0) })
    }

    @Test func lengthLimitCountsCharactersForASCIIAndOtherAddresses() {
        let ascii = String(repeating: "a", count: 248) + "@b.com"
        #expect(ascii.utf8.count == 254 && EmailAddress.isValid(ascii))
        #expect(!EmailAddress.isValid("a" + ascii))
        // 248 two-byte Characters: 502 bytes but 254 Characters.
        let accented = String(repeating: "é", count: 248) + "@b.com"
        #expect(EmailAddress.isValid(accented))
        #expect(!EmailAddress.isValid("é" + accented))
    }

    @Test func uniquenessKeyIgnoresCase() {
        #expect(EmailAddress("Ada@Example.COM")?.uniquenessKey == EmailAddress("ada@example.com")?.uniquenessKey)
        #expect(EmailAddress("Ada@Example.COM")?.value == "Ada@Example.COM")
    }

    @Test(arguments: ["a@b.co", "a.b@c.d.e", "1@2.3"])
    func wellFormedAddressesAreAccepted(_ raw: String) {
        #expect(EmailAddress(raw) != nil)
    }

    @Test(arguments: ["a@b@c.de", "@c.de", "a@cde", "a@.cde", "a@cde.", "a @c.de", "a@c.d e", "", "a"])
    func malformedAddressesAreRefused(_ raw: String) {
        #expect(EmailAddress(raw) == nil)
    }

    @Test func lengthLimitIs254Characters() {
        let suffix = "@example.com"
        #expect(EmailAddress(string(length: 254 - suffix.count) + suffix) != nil)
        #expect(EmailAddress(string(length: 255 - suffix.count) + suffix) == nil)
    }
}

@Suite("MenuItem and Order entity rules")
struct MenuItemAndOrderEntityTests {
    @Test func canSupplyUpToTheStock() {
        let item = MenuItem(id: MenuItemID("i"), restaurantId: RestaurantID("r"), name: "I", price: Money(minorUnits: 100, currency: .usd), stock: 3)
        #expect(item.canSupply(3))
        #expect(!item.canSupply(4))
        #expect(item.with(stock: 0).stock == 0)
        #expect(item.displayPrice == "USD 1.00")
    }

    @Test func orderComputesTaxOnSubtotalMinusDiscount() {
        let order = Order(
            id: OrderID("o"), userId: UserID("u"),
            lines: [Order.Line(itemId: MenuItemID("a"), quantity: 3, unitPriceCents: 500), Order.Line(itemId: MenuItemID("b"), quantity: 1, unitPriceCents: 250)],
            currency: .usd, discountCents: 725, taxRate: TaxRate(partsPerMillion: 20_000)!, deliveryAddress: "x", createdAt: World.start
        )
        #expect(order.subtotalCents == 1750)
        #expect(order.taxableCents == 1025)
        #expect(order.taxCents == 20)
        #expect(order.totalCents == 1045)
    }
}

@Suite("DomainError")
struct DomainErrorTests {
    @Test func invalidInputMessageNamesTheField() {
        #expect(DomainError.invalidInput(field: "email", reason: "is bad").description.contains("email"))
    }

    @Test func businessRuleMessagesMentionTheNumbers() {
        #expect(DomainError.businessRule(.favoritesLimitReached(limit: 100)).description.contains("100"))
        #expect(DomainError.businessRule(.orderBelowMinimum(minimumMinorUnits: 1000, actualMinorUnits: 999)).description.contains("999"))
        let stock = DomainError.businessRule(.insufficientStock(itemId: MenuItemID("item-7"), requested: 6, available: 5)).description
        #expect(stock.contains("item-7"))
        #expect(stock.contains("6"))
        #expect(stock.contains("5"))
    }
}

@Suite("White space in names")
struct WhiteSpaceTests {
    // Each is only white space by Unicode's measure: ASCII blanks, CR LF (one Character),
    // no-break and ideographic spaces, a line separator.
    @Test(arguments: ["", " ", "\t\n\r\n", "\u{00A0}", "\u{3000} \u{2028}"])
    func onlyWhiteSpaceHasNone(_ text: String) {
        #expect(!text.hasNonWhitespace)
        #expect(text.trimmed.isEmpty)
    }

    @Test func trimmingAgreesWithTrimmingCharactersForEveryShortString() {
        // The reference: cut white-space Characters from both ends.
        func reference(_ text: String) -> String {
            guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return "" }
            return String(text[first...text.lastIndex(where: { !$0.isWhitespace })!])
        }
        // Every string of up to 5 of these pieces (37,449 strings): ASCII letters and blanks,
        // CR LF, a no-break space, a combining accent (joins what precedes it), a control character.
        let pieces = ["a", " ", "\t", "\r\n", "\u{00A0}", "\u{301}", "é", "\u{0007}"]
        var strings = [""]
        var frontier = [""]
        for _ in 1...5 {
            frontier = frontier.flatMap { prefix in pieces.map { prefix + $0 } }
            strings += frontier
        }
        let disagreements = strings.filter { $0.trimmed != reference($0) }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { $0.debugDescription })")
    }

    // Printable ASCII anywhere, a non-ASCII letter alone, a control character, an emoji.
    @Test(arguments: ["a", "  x  ", "\u{3000}b", "é", " \u{00E9} ", "\u{0007}", "\u{1F35C}"])
    func anythingElseCounts(_ text: String) {
        #expect(text.hasNonWhitespace)
        #expect(!text.trimmed.isEmpty)
    }
}

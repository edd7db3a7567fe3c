import Domain
import RestaurantTesting
import Testing

@Suite("RegisterUser")
struct RegisterUserTests {
    @Test func registerStoresTrimmedNameAndEmailWithJoinDateFromTheClock() async throws {
        let world = World()
        let user = try await world.registerUser.execute(.init(name: "  Ada Lovelace \n", email: "  ada@example.com\t"))
        let expected = User(
            id: UserID("id-000001"), name: "Ada Lovelace", email: try #require(EmailAddress("ada@example.com")),
            joinedAt: World.start, isActive: true, subscriptionActiveUntil: nil
        )
        #expect(user == expected)
        #expect(user.email.value == "ada@example.com")
        #expect(try await world.users.user(id: user.id) == expected)
    }

    @Test(arguments: [
        "a@b.co",
        "first.last+tag@sub.example.org",
        "UPPER@EXAMPLE.COM",
        "x@a.b.c",
        "o'neil@example.ie",
    ])
    func registerAcceptsWellFormedEmail(_ email: String) async throws {
        let world = World()
        let user = try await world.registerUser.execute(.init(name: "Someone", email: email))
        #expect(user.email.value == email)
    }

    @Test(arguments: [
        "",
        "   ",
        "plainaddress",
        "@example.com",
        "a@@example.com",
        "a@b@example.com",
        "a@b.co@example.com",
        "a@example",
        "a@.example.com",
        "a@example.com.",
        "a@.",
        "a@",
        "a b@example.com",
        "ab@exa mple.com",
        "ab@example.com\u{00A0}x",
        "a\t@example.com",
    ])
    func registerRefusesMalformedEmailNamingTheEmailField(_ email: String) async throws {
        let world = World()
        await expectInvalidInput("email") {
            try await world.registerUser.execute(.init(name: "Someone", email: email))
        }
        #expect(try await world.users.allUsers().isEmpty)
    }

    @Test func registerAccepts254CharacterEmail() async throws {
        let world = World()
        let domain = "@example.com"
        let email = string(length: 254 - domain.count, of: "l") + domain
        #expect(email.count == 254)
        let user = try await world.registerUser.execute(.init(name: "Long", email: email))
        #expect(user.email.value == email)
    }

    @Test func registerRefuses255CharacterEmail() async throws {
        let world = World()
        let domain = "@example.com"
        let email = string(length: 255 - domain.count, of: "l") + domain
        #expect(email.count == 255)
        await expectInvalidInput("email") {
            try await world.registerUser.execute(.init(name: "Long", email: email))
        }
    }

    @Test func registerMeasuresEmailLengthAfterTrimming() async throws {
        let world = World()
        let domain = "@example.com"
        let email = string(length: 254 - domain.count, of: "l") + domain
        let user = try await world.registerUser.execute(.init(name: "Long", email: "   " + email + "   "))
        #expect(user.email.value == email)
    }

    @Test func registerRefusesEmailTakenInAnotherCaseWithConflictAndStoresNothing() async throws {
        let world = World()
        let first = try await world.makeUser(email: "ada@example.com")
        await expectConflict {
            try await world.registerUser.execute(.init(name: "Impostor", email: "  ADA@Example.COM "))
        }
        let all = try await world.users.allUsers()
        #expect(all == [first])
    }

    @Test func registerRefusesExactDuplicateEmailWithConflict() async throws {
        let world = World()
        _ = try await world.makeUser(email: "ada@example.com")
        await expectConflict {
            try await world.registerUser.execute(.init(name: "Twin", email: "ada@example.com"))
        }
        #expect(try await world.users.allUsers().count == 1)
    }

    @Test func registerAccepts100CharacterNameAndRefuses101() async throws {
        let world = World()
        let user = try await world.registerUser.execute(.init(name: string(length: 100), email: "a@example.com"))
        #expect(user.name == string(length: 100))
        await expectInvalidInput("name") {
            try await world.registerUser.execute(.init(name: string(length: 101), email: "b@example.com"))
        }
        #expect(try await world.users.allUsers().count == 1)
    }

    @Test func registerCountsNameLengthAfterTrimming() async throws {
        let world = World()
        let user = try await world.registerUser.execute(.init(name: "  " + string(length: 100) + "  ", email: "a@example.com"))
        #expect(user.name.count == 100)
    }

    @Test(arguments: ["", "   ", "\n\t "])
    func registerRefusesBlankName(_ name: String) async throws {
        let world = World()
        await expectInvalidInput("name") {
            try await world.registerUser.execute(.init(name: name, email: "a@example.com"))
        }
        #expect(try await world.users.allUsers().isEmpty)
    }
}

@Suite("GetUserProfile and membership tiers")
struct GetUserProfileTests {
    @Test func profileShowsIdentityBronzeTierAndNoPremiumForANewUser() async throws {
        let world = World()
        let user = try await world.makeUser(name: "Grace", email: "grace@example.com")
        let profile = try await world.getUserProfile.execute(userId: user.id)
        #expect(profile.id == user.id)
        #expect(profile.name == "Grace")
        #expect(profile.email.value == "grace@example.com")
        #expect(profile.membershipTier == .bronze)
        #expect(profile.canAccessPremiumContent == false)
    }

    @Test func profileOfUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "nobody") {
            try await world.getUserProfile.execute(userId: UserID("nobody"))
        }
    }

    @Test func profileOfInactiveUserIsUnauthorized() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        await expectUnauthorized {
            try await world.getUserProfile.execute(userId: user.id)
        }
    }

    private func tier(joinedAt: Timestamp, now: Timestamp) async throws -> MembershipTier {
        let world = World(now: joinedAt)
        let user = try await world.makeUser()
        world.clock.set(now)
        return try await world.getUserProfile.execute(userId: user.id).membershipTier
    }

    @Test func tierIsBronzeOneMillisecondBeforeTheFirstAnniversary() async throws {
        let joined = World.start
        #expect(try await tier(joinedAt: joined, now: joined.adding(years: 1).adding(milliseconds: -1)) == .bronze)
    }

    @Test func tierIsSilverAtExactlyOneCalendarYear() async throws {
        let joined = World.start
        #expect(try await tier(joinedAt: joined, now: joined.adding(years: 1)) == .silver)
        #expect(joined.adding(years: 1) == Timestamp(year: 2027, month: 6, day: 15, hour: 12))
    }

    @Test func tierIsSilverOneMillisecondBeforeTheThirdAnniversary() async throws {
        let joined = World.start
        #expect(try await tier(joinedAt: joined, now: joined.adding(years: 3).adding(milliseconds: -1)) == .silver)
    }

    @Test func tierIsGoldAtExactlyThreeCalendarYearsAndAfter() async throws {
        let joined = World.start
        #expect(try await tier(joinedAt: joined, now: joined.adding(years: 3)) == .gold)
        #expect(try await tier(joinedAt: joined, now: joined.adding(years: 10)) == .gold)
    }

    @Test func tierUsesCalendarYearsNot365DayBlocks() async throws {
        // 2023-06-15 + 365 days is 2024-06-14 (2024 is a leap year): not yet one calendar year.
        let joined = Timestamp(year: 2023, month: 6, day: 15, hour: 12)
        #expect(try await tier(joinedAt: joined, now: joined.adding(days: 365)) == .bronze)
        #expect(try await tier(joinedAt: joined, now: joined.adding(days: 366)) == .silver)
    }

    @Test func leapDayJoinerReachesSilverOnFebruary28OfTheCommonYear() async throws {
        let joined = Timestamp(year: 2024, month: 2, day: 29, hour: 12)
        let anniversary = Timestamp(year: 2025, month: 2, day: 28, hour: 12)
        #expect(try await tier(joinedAt: joined, now: anniversary.adding(milliseconds: -1)) == .bronze)
        #expect(try await tier(joinedAt: joined, now: anniversary) == .silver)
    }
}

@Suite("UpdateUserProfile")
struct UpdateUserProfileTests {
    @Test func updateChangesNameAndEmailTrimmedAndStoresThem() async throws {
        let world = World()
        let user = try await world.makeUser(name: "Old", email: "old@example.com")
        let updated = try await world.updateUserProfile.execute(.init(userId: user.id, name: "  New Name ", email: " new@example.com "))
        #expect(updated.name == "New Name")
        #expect(updated.email.value == "new@example.com")
        #expect(updated.id == user.id)
        #expect(updated.joinedAt == user.joinedAt)
        #expect(updated.isActive)
        #expect(try await world.users.user(id: user.id) == updated)
    }

    @Test func updateWithOnlyANameKeepsTheEmail() async throws {
        let world = World()
        let user = try await world.makeUser(name: "Old", email: "keep@example.com")
        let updated = try await world.updateUserProfile.execute(.init(userId: user.id, name: "New"))
        #expect(updated.name == "New")
        #expect(updated.email.value == "keep@example.com")
    }

    @Test func updateWithNoFieldsChangesNothingAndReturnsTheUser() async throws {
        let world = World()
        let user = try await world.makeUser()
        let same = try await world.updateUserProfile.execute(.init(userId: user.id))
        #expect(same == user)
        #expect(try await world.users.user(id: user.id) == user)
    }

    @Test func updateToAnotherUsersEmailInOtherCaseIsConflictAndChangesNothing() async throws {
        let world = World()
        _ = try await world.makeUser(name: "Ada", email: "ada@example.com")
        let bob = try await world.makeUser(name: "Bob", email: "bob@example.com")
        await expectConflict {
            try await world.updateUserProfile.execute(.init(userId: bob.id, name: "Bobby", email: "ADA@EXAMPLE.com"))
        }
        #expect(try await world.users.user(id: bob.id) == bob)
    }

    @Test func updateToOwnEmailInOtherCaseIsAccepted() async throws {
        let world = World()
        let ada = try await world.makeUser(name: "Ada", email: "ada@example.com")
        let updated = try await world.updateUserProfile.execute(.init(userId: ada.id, email: "ADA@Example.com"))
        #expect(updated.email.value == "ADA@Example.com")
        #expect(try await world.users.user(id: ada.id)?.email.value == "ADA@Example.com")
    }

    @Test func updateReleasesTheOldEmailForOthers() async throws {
        let world = World()
        let ada = try await world.makeUser(name: "Ada", email: "ada@example.com")
        _ = try await world.updateUserProfile.execute(.init(userId: ada.id, email: "ada2@example.com"))
        let newcomer = try await world.registerUser.execute(.init(name: "New", email: "ada@example.com"))
        #expect(newcomer.email.value == "ada@example.com")
        await expectConflict {
            try await world.registerUser.execute(.init(name: "Other", email: "Ada2@example.com"))
        }
    }

    @Test(arguments: ["not-an-email", "a@b", "a b@c.de", ""])
    func updateRefusesMalformedEmailNamingEmail(_ email: String) async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectInvalidInput("email") {
            try await world.updateUserProfile.execute(.init(userId: user.id, email: email))
        }
        #expect(try await world.users.user(id: user.id) == user)
    }

    @Test func updateRefusesBlankOrOverlongNameNamingName() async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectInvalidInput("name") {
            try await world.updateUserProfile.execute(.init(userId: user.id, name: "   "))
        }
        await expectInvalidInput("name") {
            try await world.updateUserProfile.execute(.init(userId: user.id, name: string(length: 101)))
        }
        let ok = try await world.updateUserProfile.execute(.init(userId: user.id, name: string(length: 100)))
        #expect(ok.name.count == 100)
    }

    @Test func updateOfUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "ghost") {
            try await world.updateUserProfile.execute(.init(userId: UserID("ghost"), name: "X"))
        }
    }

    @Test func updateOfInactiveUserIsUnauthorizedAndChangesNothing() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        await expectUnauthorized {
            try await world.updateUserProfile.execute(.init(userId: user.id, name: "Revived"))
        }
        #expect(try await world.users.user(id: user.id) == user)
    }
}

@Suite("DeactivateUser")
struct DeactivateUserTests {
    @Test func deactivateMarksTheUserInactiveAndKeepsEverythingElse() async throws {
        let world = World()
        let user = try await world.makeUser()
        let deactivated = try await world.deactivateUser.execute(userId: user.id)
        #expect(deactivated == user.with(isActive: false))
        #expect(deactivated.isActive == false)
        #expect(try await world.users.user(id: user.id)?.isActive == false)
    }

    @Test func deactivatingTwiceSucceedsAndStaysInactive() async throws {
        let world = World()
        let user = try await world.makeUser()
        let first = try await world.deactivateUser.execute(userId: user.id)
        let second = try await world.deactivateUser.execute(userId: user.id)
        #expect(second == first)
        #expect(second.isActive == false)
    }

    @Test func deactivateUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "ghost") {
            try await world.deactivateUser.execute(userId: UserID("ghost"))
        }
    }

    @Test func deactivatedUsersEmailStaysTaken() async throws {
        let world = World()
        _ = try await world.makeUser(email: "gone@example.com")
        let users = try await world.users.allUsers()
        _ = try await world.deactivateUser.execute(userId: try #require(users.first).id)
        await expectConflict {
            try await world.registerUser.execute(.init(name: "Again", email: "GONE@example.com"))
        }
    }
}

@Suite("StartSubscription and premium access")
struct StartSubscriptionTests {
    @Test func subscriptionWithoutPreviousOneRunsFromNowByCalendarMonths() async throws {
        let world = World()
        let user = try await world.makeUser()
        let subscribed = try await world.startSubscription.execute(userId: user.id, months: 1)
        #expect(subscribed.subscriptionActiveUntil == Timestamp(year: 2026, month: 7, day: 15, hour: 12))
        #expect(subscribed == user.with(subscriptionActiveUntil: .some(Timestamp(year: 2026, month: 7, day: 15, hour: 12))))
        #expect(try await world.users.user(id: user.id) == subscribed)
        #expect(try await world.getUserProfile.execute(userId: user.id).canAccessPremiumContent)
    }

    @Test func activeSubscriptionIsExtendedFromItsCurrentEnd() async throws {
        let world = World()
        let user = try await world.makeUser()
        _ = try await world.startSubscription.execute(userId: user.id, months: 1) // until 2026-07-15T12
        world.advance(days: 10)
        let extended = try await world.startSubscription.execute(userId: user.id, months: 2)
        #expect(extended.subscriptionActiveUntil == Timestamp(year: 2026, month: 9, day: 15, hour: 12))
    }

    @Test func expiredSubscriptionRestartsFromNow() async throws {
        let world = World()
        let user = try await world.makeUser()
        _ = try await world.startSubscription.execute(userId: user.id, months: 1) // until 2026-07-15T12
        world.clock.set(Timestamp(year: 2026, month: 8, day: 1, hour: 9, minute: 30))
        let restarted = try await world.startSubscription.execute(userId: user.id, months: 1)
        #expect(restarted.subscriptionActiveUntil == Timestamp(year: 2026, month: 9, day: 1, hour: 9, minute: 30))
    }

    @Test func subscriptionEndingExactlyNowRestartsFromNow() async throws {
        let world = World()
        let user = try await world.makeUser()
        _ = try await world.startSubscription.execute(userId: user.id, months: 1)
        world.clock.set(Timestamp(year: 2026, month: 7, day: 15, hour: 12))
        let restarted = try await world.startSubscription.execute(userId: user.id, months: 1)
        #expect(restarted.subscriptionActiveUntil == Timestamp(year: 2026, month: 8, day: 15, hour: 12))
    }

    @Test func premiumAccessOnlyWhileTheSubscriptionEndIsInTheFuture() async throws {
        let world = World()
        let user = try await world.makeUser()
        let end = Timestamp(year: 2026, month: 7, day: 15, hour: 12)
        _ = try await world.startSubscription.execute(userId: user.id, months: 1)
        world.clock.set(end.adding(milliseconds: -1))
        #expect(try await world.getUserProfile.execute(userId: user.id).canAccessPremiumContent == true)
        world.clock.set(end)
        #expect(try await world.getUserProfile.execute(userId: user.id).canAccessPremiumContent == false)
        world.clock.set(end.adding(days: 1))
        #expect(try await world.getUserProfile.execute(userId: user.id).canAccessPremiumContent == false)
    }

    @Test func januaryThirtyFirstPlusOneMonthClampsToTheEndOfFebruary() async throws {
        let world = World(now: Timestamp(year: 2026, month: 1, day: 31, hour: 10))
        let user = try await world.makeUser()
        let subscribed = try await world.startSubscription.execute(userId: user.id, months: 1)
        #expect(subscribed.subscriptionActiveUntil == Timestamp(year: 2026, month: 2, day: 28, hour: 10))

        let leapWorld = World(now: Timestamp(year: 2028, month: 1, day: 31, hour: 10))
        let leapUser = try await leapWorld.makeUser()
        let leapSubscribed = try await leapWorld.startSubscription.execute(userId: leapUser.id, months: 1)
        #expect(leapSubscribed.subscriptionActiveUntil == Timestamp(year: 2028, month: 2, day: 29, hour: 10))
    }

    @Test(arguments: [0, 121, -1, Int.min, Int.max])
    func subscriptionLengthOutside1To120IsRefusedNamingMonths(_ months: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectInvalidInput("months") {
            try await world.startSubscription.execute(userId: user.id, months: months)
        }
        #expect(try await world.users.user(id: user.id)?.subscriptionActiveUntil == nil)
    }

    @Test func subscriptionOfOneAndOf120MonthsAreAccepted() async throws {
        let world = World()
        let one = try await world.makeUser()
        let many = try await world.makeUser()
        #expect(try await world.startSubscription.execute(userId: one.id, months: 1).subscriptionActiveUntil == Timestamp(year: 2026, month: 7, day: 15, hour: 12))
        #expect(try await world.startSubscription.execute(userId: many.id, months: 120).subscriptionActiveUntil == Timestamp(year: 2036, month: 6, day: 15, hour: 12))
    }

    @Test func subscriptionForUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "ghost") {
            try await world.startSubscription.execute(userId: UserID("ghost"), months: 1)
        }
    }

    @Test func subscriptionForInactiveUserIsUnauthorizedAndChangesNothing() async throws {
        let world = World()
        let user = try await world.makeInactiveUser()
        await expectUnauthorized {
            try await world.startSubscription.execute(userId: user.id, months: 1)
        }
        #expect(try await world.users.user(id: user.id)?.subscriptionActiveUntil == nil)
    }
}

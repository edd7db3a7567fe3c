import Domain
import RestaurantTesting
import Testing

@Suite("AddMenuItem")
struct AddMenuItemTests {
    @Test func addingAnItemStoresItTrimmedWithPriceAndStock() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant() // id-000001
        let item = try await world.addMenuItem.execute(.init(restaurantId: restaurant.id, name: "  Margherita ", priceCents: 1250, currency: "EUR", stock: 7))
        let expected = MenuItem(id: MenuItemID("id-000002"), restaurantId: restaurant.id, name: "Margherita", price: Money(minorUnits: 1250, currency: .eur), stock: 7)
        #expect(item == expected)
        #expect(try await world.menu.item(id: item.id) == expected)
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id) == [expected])
    }

    @Test func priceOfOneMinorUnitIsAcceptedAndZeroOrLessRefused() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        #expect(try await world.makeItem(restaurantId: restaurant.id, name: "Mint", priceCents: 1).price.minorUnits == 1)
        await expectInvalidInput("priceCents") { try await world.makeItem(restaurantId: restaurant.id, name: "Free", priceCents: 0) }
        await expectInvalidInput("priceCents") { try await world.makeItem(restaurantId: restaurant.id, name: "Paid to eat", priceCents: -5) }
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id).map(\.name) == ["Mint"])
    }

    @Test(arguments: ["USD", "EUR", "GBP", "JPY"])
    func requiredCurrenciesAreSupported(_ code: String) async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, currency: code)
        #expect(item.price.currency.code == code)
    }

    @Test(arguments: ["XYZ", "usd", "Usd", "", " USD", "US", "USDD", "€"])
    func unsupportedCurrencyIsRefusedNamingCurrency(_ code: String) async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectInvalidInput("currency") { try await world.makeItem(restaurantId: restaurant.id, currency: code) }
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id).isEmpty)
    }

    @Test func stockOfZeroIsAcceptedAndNegativeRefused() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        #expect(try await world.makeItem(restaurantId: restaurant.id, name: "Sold out", stock: 0).stock == 0)
        await expectInvalidInput("stock") { try await world.makeItem(restaurantId: restaurant.id, name: "Owed", stock: -1) }
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id).count == 1)
    }

    @Test func itemNameMustBeNonBlankAndAtMost100Characters() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        await expectInvalidInput("name") { try await world.makeItem(restaurantId: restaurant.id, name: "  ") }
        await expectInvalidInput("name") { try await world.makeItem(restaurantId: restaurant.id, name: string(length: 101)) }
        #expect(try await world.makeItem(restaurantId: restaurant.id, name: string(length: 100)).name.count == 100)
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id).count == 1)
    }

    @Test func addingToUnknownRestaurantIsNotFound() async throws {
        let world = World()
        await expectNotFound("restaurant", id: "nope") {
            try await world.makeItem(restaurantId: RestaurantID("nope"))
        }
        #expect(try await world.menu.menu(of: RestaurantID("nope")).isEmpty)
    }
}

@Suite("RestockMenuItem")
struct RestockMenuItemTests {
    @Test func restockAddsToTheStock() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 5)
        let restocked = try await world.restockMenuItem.execute(itemId: item.id, quantity: 3)
        #expect(restocked == item.with(stock: 8))
        #expect(try await world.stock(of: item.id) == 8)
        #expect(try await world.restockMenuItem.execute(itemId: item.id, quantity: 1).stock == 9)
    }

    @Test(arguments: [0, -1])
    func restockQuantityMustBePositive(_ quantity: Int) async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: 5)
        await expectInvalidInput("quantity") { try await world.restockMenuItem.execute(itemId: item.id, quantity: quantity) }
        #expect(try await world.stock(of: item.id) == 5)
    }

    @Test func restockNeverTakesTheStockPastItsMaximum() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let maximum = MenuItem.stocks.upperBound
        let item = try await world.makeItem(restaurantId: restaurant.id, stock: maximum - 10)
        #expect(try await world.restockMenuItem.execute(itemId: item.id, quantity: 10).stock == maximum)
        await expectBusinessRule(.stockAboveMaximum(itemId: item.id, stock: maximum, quantity: 1, maximum: maximum)) {
            try await world.restockMenuItem.execute(itemId: item.id, quantity: 1)
        }
        #expect(
            BusinessRuleViolation.stockAboveMaximum(itemId: MenuItemID("m-1"), stock: 999_999_999, quantity: 2, maximum: maximum).description
                == "restocking 2 would take the stock of item m-1 from 999999999 past the maximum of 1000000000; nothing was added"
        )
        #expect(try await world.stock(of: item.id) == maximum)
    }

    @Test func restockOfUnknownItemIsNotFound() async throws {
        let world = World()
        await expectNotFound("menu item", id: "nope") {
            try await world.restockMenuItem.execute(itemId: MenuItemID("nope"), quantity: 1)
        }
    }
}

@Suite("GetMenu")
struct GetMenuTests {
    @Test func menuIsSortedByName() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        let other = try await world.makeRestaurant(name: "Other")
        for name in ["Zucchini", "Apple pie", "Mango lassi", "Bruschetta"] {
            _ = try await world.makeItem(restaurantId: restaurant.id, name: name)
        }
        _ = try await world.makeItem(restaurantId: other.id, name: "Aardvark stew")
        let menu = try await world.getMenu.execute(restaurantId: restaurant.id)
        #expect(menu.map(\.name) == ["Apple pie", "Bruschetta", "Mango lassi", "Zucchini"])
        #expect(menu.allSatisfy { $0.restaurantId == restaurant.id })
    }

    @Test func menuOfARestaurantWithoutItemsIsEmpty() async throws {
        let world = World()
        let restaurant = try await world.makeRestaurant()
        #expect(try await world.getMenu.execute(restaurantId: restaurant.id).isEmpty)
    }

    @Test func menuOfUnknownRestaurantIsNotFound() async throws {
        let world = World()
        await expectNotFound("restaurant", id: "nope") {
            try await world.getMenu.execute(restaurantId: RestaurantID("nope"))
        }
    }
}

/// A user, a restaurant and two USD items: pasta (750, stock 10) and wine (300, stock 5).
private struct Diner {
    let world: World
    let user: User
    let restaurant: Restaurant
    let pasta: MenuItem
    let wine: MenuItem

    init(taxRate: TaxRate = World.defaultTaxRate) async throws {
        world = World(taxRate: taxRate)
        user = try await world.makeUser()                                                             // id-000001
        restaurant = try await world.makeRestaurant()                                                 // id-000002
        pasta = try await world.makeItem(restaurantId: restaurant.id, name: "Pasta", priceCents: 750, stock: 10) // id-000003
        wine = try await world.makeItem(restaurantId: restaurant.id, name: "Wine", priceCents: 300, stock: 5)    // id-000004
    }

    func order(_ lines: [(MenuItem, Int)], discount: Int? = nil, address: String = "12 Baker Street", userId: UserID? = nil) async throws -> Order {
        try await world.placeOrder.execute(.init(
            userId: userId ?? user.id,
            items: lines.map { PlaceOrder.LineInput(itemId: $0.0.id, quantity: $0.1) },
            discountCents: discount,
            deliveryAddress: address
        ))
    }

    func stocks() async throws -> [Int] {
        [try await world.stock(of: pasta.id), try await world.stock(of: wine.id)]
    }

    func orderCount() async throws -> Int {
        try await world.listOrders.execute(userId: user.id, limit: 500).items.count
    }
}

@Suite("PlaceOrder")
struct PlaceOrderTests {
    @Test func placingAnOrderPricesTaxesStoresItAndTakesTheStock() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2), (diner.wine, 1)], discount: 300, address: "  12 Baker Street ")
        let expected = Order(
            id: OrderID("id-000005"), userId: diner.user.id,
            lines: [
                Order.Line(itemId: diner.pasta.id, quantity: 2, unitPriceCents: 750),
                Order.Line(itemId: diner.wine.id, quantity: 1, unitPriceCents: 300),
            ],
            currency: .usd, discountCents: 300, taxCents: 120, deliveryAddress: "12 Baker Street", createdAt: World.start
        )
        #expect(order == expected)
        #expect(order.subtotalCents == 1800)
        #expect(order.taxableCents == 1500)
        #expect(order.taxCents == 120)      // 1500 × 0.08
        #expect(order.totalCents == 1620)   // 1800 − 300 + 120
        #expect(try await diner.stocks() == [8, 4])
        #expect(try await diner.world.getOrder.execute(orderId: order.id) == expected)
    }

    @Test func absentDiscountMeansZero() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        #expect(order.discountCents == 0)
        #expect(order.subtotalCents == 1500)
        #expect(order.taxCents == 120)
        #expect(order.totalCents == 1620)
    }

    @Test func orderingTheWholeStockLeavesZero() async throws {
        let diner = try await Diner()
        _ = try await diner.order([(diner.pasta, 10)])
        #expect(try await diner.stocks() == [0, 5])
        await expectBusinessRule(.insufficientStock(itemId: diner.pasta.id, requested: 1, available: 0)) {
            try await diner.order([(diner.pasta, 1), (diner.wine, 5)])
        }
        #expect(try await diner.stocks() == [0, 5])
    }

    @Test func notEnoughStockOnTheSecondItemRefusesWithBusinessRuleAndChangesNothing() async throws {
        let diner = try await Diner()
        await expectBusinessRule(.insufficientStock(itemId: diner.wine.id, requested: 6, available: 5)) {
            try await diner.order([(diner.pasta, 2), (diner.wine, 6)])
        }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func emptyItemsAreRefusedNamingItems() async throws {
        let diner = try await Diner()
        await expectInvalidInput("items") { try await diner.order([]) }
        #expect(try await diner.orderCount() == 0)
    }

    @Test func duplicateItemsAreRefusedNamingItemsAndChangeNothing() async throws {
        let diner = try await Diner()
        await expectInvalidInput("items") { try await diner.order([(diner.pasta, 1), (diner.wine, 1), (diner.pasta, 1)]) }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test(arguments: [0, -1])
    func quantityBelowOneIsRefusedNamingTheQuantity(_ quantity: Int) async throws {
        let diner = try await Diner()
        // The field names the offending line: the wine is line 1 (0-based).
        await expectInvalidInput("items[1].quantity") { try await diner.order([(diner.pasta, 2), (diner.wine, quantity)]) }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func negativeDiscountIsRefusedNamingDiscount() async throws {
        let diner = try await Diner()
        await expectInvalidInput("discountCents") { try await diner.order([(diner.pasta, 2)], discount: -1) }
        #expect(try await diner.stocks() == [10, 5])
    }

    @Test func discountAboveSubtotalIsRefusedNamingDiscountAndChangesNothing() async throws {
        // (Before the fix this trapped: the Order, whose initializer taxes subtotal − discount,
        // was built before discount ≤ subtotal was checked, and TaxRate.tax(on:) preconditions
        // a non-negative amount.)
        let diner = try await Diner()
        await expectInvalidInput("discountCents") { try await diner.order([(diner.pasta, 2)], discount: 1501) }
        await expectInvalidInput("discountCents") { try await diner.order([(diner.pasta, 2)], discount: Int.max) }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func discountEqualToSubtotalPassesTheInputRuleButFailsTheMinimum() async throws {
        let diner = try await Diner()
        await expectBusinessRule(.orderBelowMinimum(minimumMinorUnits: 1000, actualMinorUnits: 0)) {
            try await diner.order([(diner.pasta, 2)], discount: 1500)
        }
        #expect(try await diner.stocks() == [10, 5])
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func blankDeliveryAddressIsRefusedNamingIt(_ address: String) async throws {
        let diner = try await Diner()
        await expectInvalidInput("deliveryAddress") { try await diner.order([(diner.pasta, 2)], address: address) }
        #expect(try await diner.stocks() == [10, 5])
    }

    @Test func mixedCurrenciesAreRefusedNamingItemsAndChangeNothing() async throws {
        let diner = try await Diner()
        let sushi = try await diner.world.makeItem(restaurantId: diner.restaurant.id, name: "Sushi", priceCents: 1500, currency: "JPY", stock: 3)
        await expectInvalidInput("items") { try await diner.order([(diner.pasta, 2), (sushi, 1)]) }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.world.stock(of: sushi.id) == 3)
        #expect(try await diner.orderCount() == 0)
    }

    @Test func singleNonUSDCurrencyIsCarriedToTheOrder() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let ramen = try await world.makeItem(restaurantId: restaurant.id, name: "Ramen", priceCents: 1200, currency: "JPY", stock: 3)
        let order = try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: ramen.id, quantity: 1)], deliveryAddress: "Tokyo"))
        #expect(order.currency == .jpy)
        #expect(order.taxCents == 96)
        #expect(order.totalCents == 1296)
    }

    @Test func unknownItemIsNotFoundAndChangesNothing() async throws {
        let diner = try await Diner()
        await expectNotFound("menu item", id: "nope") {
            try await diner.world.placeOrder.execute(.init(
                userId: diner.user.id,
                items: [.init(itemId: diner.pasta.id, quantity: 2), .init(itemId: MenuItemID("nope"), quantity: 1)],
                deliveryAddress: "Here"
            ))
        }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func orderOfUnknownUserIsNotFound() async throws {
        let diner = try await Diner()
        await expectNotFound("user", id: "ghost") { try await diner.order([(diner.pasta, 2)], userId: UserID("ghost")) }
        #expect(try await diner.stocks() == [10, 5])
    }

    @Test func orderOfInactiveUserIsUnauthorizedAndChangesNothing() async throws {
        let diner = try await Diner()
        _ = try await diner.world.deactivateUser.execute(userId: diner.user.id)
        await expectUnauthorized { try await diner.order([(diner.pasta, 2)]) }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func orderWorth999AfterDiscountIsBelowTheMinimum() async throws {
        let diner = try await Diner()
        await expectBusinessRule(.orderBelowMinimum(minimumMinorUnits: 1000, actualMinorUnits: 999)) {
            try await diner.order([(diner.pasta, 2)], discount: 501)
        }
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.orderCount() == 0)
    }

    @Test func orderWorth999BeforeDiscountIsBelowTheMinimum() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 333, stock: 10)
        await expectBusinessRule(.orderBelowMinimum(minimumMinorUnits: 1000, actualMinorUnits: 999)) {
            try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 3)], deliveryAddress: "Here"))
        }
        #expect(try await world.stock(of: item.id) == 10)
    }

    @Test func orderWorthExactly1000AfterDiscountIsAccepted() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)], discount: 500)
        #expect(order.taxableCents == 1000)
        #expect(order.taxCents == 80)
        #expect(order.totalCents == 1080)
        #expect(try await diner.stocks() == [8, 5])
    }

    @Test(arguments: [
        (1250, 25),  // 25.0 exactly
        (1025, 20),  // 20.5 → 20 (even)
        (1075, 22),  // 21.5 → 22 (even)
        (1125, 22),  // 22.5 → 22 (even)
        (1175, 24),  // 23.5 → 24 (even)
        (1024, 20),  // 20.48 → 20
        (1026, 21),  // 20.52 → 21
    ])
    func taxIsRoundedHalfToEven(amount: Int, expectedTax: Int) async throws {
        let world = World(taxRate: try #require(TaxRate(partsPerMillion: 20_000)))
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: amount, stock: 1)
        let order = try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "Here"))
        #expect(order.taxCents == expectedTax)
        #expect(order.totalCents == amount + expectedTax)
    }

    @Test func taxIsComputedOnSubtotalMinusDiscount() async throws {
        // Subtotal 1100, discount 75: tax on 1025 at 2 % = 20.5 → 20; total 1045.
        let world = World(taxRate: try #require(TaxRate(partsPerMillion: 20_000)))
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 550, stock: 2)
        let order = try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 2)], discountCents: 75, deliveryAddress: "Here"))
        #expect(order.subtotalCents == 1100)
        #expect(order.discountCents == 75)
        #expect(order.taxCents == 20)
        #expect(order.totalCents == 1045)
    }

    @Test func zeroTaxRateAddsNoTax() async throws {
        let diner = try await Diner(taxRate: try #require(TaxRate(partsPerMillion: 0)))
        let order = try await diner.order([(diner.pasta, 2)])
        #expect(order.taxCents == 0)
        #expect(order.totalCents == 1500)
    }

    @Test func theUnitPriceIsFixedWhenOrdered() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 3), (diner.wine, 2)])
        #expect(order.lines.map(\.unitPriceCents) == [750, 300])
        #expect(order.lines.map(\.amountCents) == [2250, 600])
        #expect(order.subtotalCents == 2850)
        #expect(order.taxCents == 228)
        #expect(order.totalCents == 3078)
    }

    @Test func successiveOrdersKeepTakingStockAndRestockAddsBack() async throws {
        let diner = try await Diner()
        _ = try await diner.order([(diner.pasta, 4)])
        _ = try await diner.order([(diner.pasta, 4), (diner.wine, 5)])
        #expect(try await diner.stocks() == [2, 0])
        _ = try await diner.world.restockMenuItem.execute(itemId: diner.wine.id, quantity: 3)
        _ = try await diner.order([(diner.pasta, 2), (diner.wine, 3)])
        #expect(try await diner.stocks() == [0, 0])
    }
}

@Suite("GetOrder")
struct GetOrderTests {
    @Test func getOrderReturnsTheStoredOrder() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        #expect(try await diner.world.getOrder.execute(orderId: order.id) == order)
    }

    @Test func getUnknownOrderIsNotFound() async throws {
        let world = World()
        await expectNotFound("order", id: "nope") {
            try await world.getOrder.execute(orderId: OrderID("nope"))
        }
    }

    @Test func ordersOfAnInactiveUserStayReadable() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        _ = try await diner.world.deactivateUser.execute(userId: diner.user.id)
        #expect(try await diner.world.getOrder.execute(orderId: order.id) == order)
    }
}

@Suite("ListOrders")
struct ListOrdersTests {
    @Test func ordersAreListedNewestFirstAndOnlyTheUsersOwn() async throws {
        let diner = try await Diner()
        let other = try await diner.world.makeUser()
        var placed: [Order] = []
        for quantity in [2, 3, 4] {
            placed.append(try await diner.order([(diner.pasta, quantity)]))
            diner.world.advance(minutes: 1)
        }
        _ = try await diner.order([(diner.wine, 4)], userId: other.id)
        let page = try await diner.world.listOrders.execute(userId: diner.user.id)
        #expect(page.items == placed.reversed())
        #expect(page.nextCursor == nil)
        #expect(try await diner.world.listOrders.execute(userId: other.id).items.count == 1)
    }

    @Test(arguments: [1, 2, 3, 5])
    func orderPagingVisitsEachOrderOnceNewestFirst(_ limit: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 1000, stock: 100)
        var placed: [Order] = []
        for index in 0..<5 {
            placed.append(try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "Here")))
            if index != 1 { world.advance(milliseconds: 1) } // orders 1 and 2 share a timestamp
        }
        let pages = try await collectPages { cursor in
            try await world.listOrders.execute(userId: user.id, limit: limit, cursor: cursor)
        }
        let visited = pages.flatMap(\.items)
        #expect(visited == placed.reversed())
        #expect(pages.count == (5 + limit - 1) / limit)
        #expect(pages.last?.nextCursor == nil)
    }

    @Test func orderListDefaultLimitIs50() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        let item = try await world.makeItem(restaurantId: restaurant.id, priceCents: 1000, stock: 100)
        for _ in 0..<51 {
            _ = try await world.placeOrder.execute(.init(userId: user.id, items: [.init(itemId: item.id, quantity: 1)], deliveryAddress: "Here"))
            world.advance(milliseconds: 1)
        }
        let page = try await world.listOrders.execute(userId: user.id)
        #expect(page.items.count == 50)
        #expect(page.nextCursor != nil)
        #expect(try await world.stock(of: item.id) == 49)
    }

    @Test func ordersOfAnInactiveUserStayListable() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        _ = try await diner.world.deactivateUser.execute(userId: diner.user.id)
        #expect(try await diner.world.listOrders.execute(userId: diner.user.id).items == [order])
    }

    @Test func ordersOfUnknownUserIsNotFound() async throws {
        let world = World()
        await expectNotFound("user", id: "ghost") {
            try await world.listOrders.execute(userId: UserID("ghost"))
        }
    }

    @Test func aUserWithoutOrdersGetsAnEmptyPage() async throws {
        let world = World()
        let user = try await world.makeUser()
        let page = try await world.listOrders.execute(userId: user.id)
        #expect(page.items.isEmpty)
        #expect(page.nextCursor == nil)
    }

    @Test(arguments: [0, 501])
    func orderListRefusesLimitOutside1To500(_ limit: Int) async throws {
        let world = World()
        let user = try await world.makeUser()
        await expectInvalidInput("limit") { try await world.listOrders.execute(userId: user.id, limit: limit) }
    }

    @Test func orderListRefusesGarbageAndForeignCursors() async throws {
        let world = World()
        let user = try await world.makeUser()
        let restaurant = try await world.makeRestaurant()
        _ = try await world.makeRestaurant(name: "Second")
        try await world.review(restaurant.id, by: user.id, ratings: [3, 4])
        let reviewCursor = try #require(try await world.getReviews.execute(restaurantId: restaurant.id, limit: 1).nextCursor)
        let listCursor = try #require(try await world.listRestaurants.execute(.init(limit: 1)).nextCursor)
        await expectInvalidInput("cursor") { try await world.listOrders.execute(userId: user.id, cursor: reviewCursor) }
        await expectInvalidInput("cursor") { try await world.listOrders.execute(userId: user.id, cursor: listCursor) }
        await expectInvalidInput("cursor") { try await world.listOrders.execute(userId: user.id, cursor: PageCursor(token: "xyz")) }
    }
}

@Suite("CancelOrder")
struct CancelOrderTests {
    @Test func cancellingReturnsEveryLinesStockAndStampsTheTime() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2), (diner.wine, 3)])
        diner.world.advance(minutes: 10)
        let cancelled = try await diner.world.cancelOrder.execute(orderId: order.id, userId: diner.user.id)
        #expect(cancelled == order.cancelled(at: World.start.adding(milliseconds: 10 * 60_000)))
        #expect(cancelled.status == .cancelled && cancelled.cancelledAt == World.start.adding(milliseconds: 600_000))
        #expect(try await diner.stocks() == [10, 5])
        #expect(try await diner.world.getOrder.execute(orderId: order.id) == cancelled)
        #expect(try await diner.world.listOrders.execute(userId: diner.user.id).items == [cancelled])
    }

    @Test func aPlacedOrderIsPlacedWithoutACancellationTime() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        #expect(order.status == .placed && order.cancelledAt == nil)
    }

    @Test func cancellingACancelledOrderAnswersItAsItIsAndReturnsNothingMore() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        let first = try await diner.world.cancelOrder.execute(orderId: order.id, userId: diner.user.id)
        // Even past the window: a cancelled order is answered before the age is judged.
        diner.world.advance(hours: 5)
        let again = try await diner.world.cancelOrder.execute(orderId: order.id, userId: diner.user.id)
        #expect(again == first)
        #expect(try await diner.stocks() == [10, 5])
    }

    @Test func thirtyMinutesAfterPlacingItMayStillBeCancelledAndOneMillisecondLaterNot() async throws {
        let diner = try await Diner()
        let onTime = try await diner.order([(diner.pasta, 2)])
        let late = try await diner.order([(diner.wine, 4)])
        diner.world.advance(minutes: 30)
        _ = try await diner.world.cancelOrder.execute(orderId: onTime.id, userId: diner.user.id)
        diner.world.advance(milliseconds: 1)
        let error = await expectDomainError { try await diner.world.cancelOrder.execute(orderId: late.id, userId: diner.user.id) }
        #expect(error == .businessRule(.cancellationWindowClosed(orderId: late.id, windowMinutes: 30)))
        #expect(try await diner.stocks() == [10, 1])
        #expect(try await diner.world.getOrder.execute(orderId: late.id) == late)
    }

    @Test func unknownOrderOrUserIsNotFound() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        await expectNotFound("order", id: "nope") { try await diner.world.cancelOrder.execute(orderId: OrderID("nope"), userId: diner.user.id) }
        await expectNotFound("user", id: "ghost") { try await diner.world.cancelOrder.execute(orderId: order.id, userId: UserID("ghost")) }
        #expect(try await diner.stocks() == [8, 5])
    }

    @Test func anUnknownOrderIsNotFoundBeforeAnInactiveUserIsUnauthorized() async throws {
        let diner = try await Diner()
        let gone = try await diner.world.makeInactiveUser()
        await expectNotFound("order", id: "nope") { try await diner.world.cancelOrder.execute(orderId: OrderID("nope"), userId: gone.id) }
    }

    @Test func anInactiveUserOrAnotherUserIsUnauthorizedAndNothingChanges() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 3)])
        let other = try await diner.world.makeUser(name: "Other")
        let otherError = await expectDomainError { try await diner.world.cancelOrder.execute(orderId: order.id, userId: other.id) }
        guard case .unauthorized = otherError else { Issue.record("another user's cancel: \(String(describing: otherError))"); return }
        _ = try await diner.world.deactivateUser.execute(userId: diner.user.id)
        let ownerError = await expectDomainError { try await diner.world.cancelOrder.execute(orderId: order.id, userId: diner.user.id) }
        guard case .unauthorized = ownerError else { Issue.record("an inactive owner's cancel: \(String(describing: ownerError))"); return }
        #expect(try await diner.stocks() == [7, 5])
        #expect(try await diner.world.getOrder.execute(orderId: order.id).status == .placed)
    }

    @Test func anInactiveUserIsUnauthorizedBeforeAnotherUsersOrderIs() async throws {
        let diner = try await Diner()
        let order = try await diner.order([(diner.pasta, 2)])
        let gone = try await diner.world.makeInactiveUser()
        let error = await expectDomainError { try await diner.world.cancelOrder.execute(orderId: order.id, userId: gone.id) }
        #expect(error == .unauthorized(reason: "user \(gone.id) is inactive"))
    }
}

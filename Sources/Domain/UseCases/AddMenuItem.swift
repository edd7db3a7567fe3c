/// Adds an item to a restaurant's menu with its price and initial stock.
public struct AddMenuItem: Sendable {
    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// The selling restaurant.
        public var restaurantId: RestaurantID
        /// Name, 1…100 characters.
        public var name: String
        /// Unit price in minor units, 1…1,000,000,000.
        public var priceCents: Int
        /// ISO 4217 code of a supported currency.
        public var currency: String
        /// Initial stock, 0…1,000,000,000.
        public var stock: Int

        /// Creates the input.
        public init(restaurantId: RestaurantID, name: String, priceCents: Int, currency: String, stock: Int) {
            self.restaurantId = restaurantId
            self.name = name
            self.priceCents = priceCents
            self.currency = currency
            self.stock = stock
        }
    }

    private let restaurants: any RestaurantRepository
    private let menu: any MenuRepository
    private let ids: any IdentifierGenerator

    /// Creates the use case.
    public init(restaurants: any RestaurantRepository, menu: any MenuRepository, ids: any IdentifierGenerator) {
        self.restaurants = restaurants
        self.menu = menu
        self.ids = ids
    }

    /// Invalid name, price, currency or stock [invalid_input]; unknown restaurant [not_found].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> MenuItem {
        let name = try Validate.name(input.name, field: "name")
        let price = try Validate.integer(input.priceCents, field: "priceCents", in: MenuItem.prices)
        guard let currency = Currency(code: input.currency) else {
            let codes = Currency.supported.map(\.code).joined(separator: ", ")
            throw DomainError.invalidInput(field: "currency", reason: "must be a supported ISO 4217 code (\(codes))")
        }
        let stock = try Validate.integer(input.stock, field: "stock", in: MenuItem.stocks)
        _ = try await restaurants.existingRestaurant(input.restaurantId)
        let item = MenuItem(id: ids.make(), restaurantId: input.restaurantId, name: name, price: Money(minorUnits: price, currency: currency), stock: stock)
        try await menu.insert(item, claim: claim)
        return item
    }
}

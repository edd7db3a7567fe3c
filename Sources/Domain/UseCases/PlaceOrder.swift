/// Places an active user's order: prices it, taxes it and takes its stock all or nothing.
public struct PlaceOrder: Sendable {
    /// One requested line.
    public struct LineInput: Sendable, Hashable {
        /// The item.
        public var itemId: MenuItemID
        /// Units, at least 1.
        public var quantity: Int

        /// Creates a line.
        public init(itemId: MenuItemID, quantity: Int) {
            self.itemId = itemId
            self.quantity = quantity
        }
    }

    /// What the caller supplies.
    public struct Input: Sendable, Hashable {
        /// Who orders.
        public var userId: UserID
        /// Distinct items, 1…100 lines.
        public var items: [LineInput]
        /// Discount in minor units, 0…subtotal; 0 when absent.
        public var discountCents: Int?
        /// Where to deliver; not blank.
        public var deliveryAddress: String

        /// Creates the input.
        public init(userId: UserID, items: [LineInput], discountCents: Int? = nil, deliveryAddress: String) {
            self.userId = userId
            self.items = items
            self.discountCents = discountCents
            self.deliveryAddress = deliveryAddress
        }
    }

    private let users: any UserRepository
    private let menu: any MenuRepository
    private let orders: any OrderRepository
    private let clock: any WallClock
    private let ids: any IdentifierGenerator
    private let taxRate: any TaxRateProvider

    /// Creates the use case.
    public init(users: any UserRepository, menu: any MenuRepository, orders: any OrderRepository, clock: any WallClock, ids: any IdentifierGenerator, taxRate: any TaxRateProvider) {
        self.users = users
        self.menu = menu
        self.orders = orders
        self.clock = clock
        self.ids = ids
        self.taxRate = taxRate
    }

    /// Checks, in order: the input's shape [invalid_input]; the user [not_found, unauthorized];
    /// the items [not_found]; one currency and 0 ≤ discount ≤ subtotal [invalid_input]; the
    /// minimum order value [business_rule]; then takes the stock atomically, all or nothing
    /// [business_rule when any item lacks stock].
    /// With `claim`, the write and the key's binding are one atomic step; a key bound meanwhile
    /// ends it with ``IdempotentReplay`` (the same request) or [conflict] (another one).
    public func execute(_ input: Input, claim: IdempotencyClaim? = nil) async throws -> Order {
        guard !input.items.isEmpty else {
            throw DomainError.invalidInput(field: "items", reason: "must not be empty")
        }
        guard input.items.count <= Order.maximumLines else {
            throw DomainError.invalidInput(field: "items", reason: "must have at most \(Order.maximumLines) lines")
        }
        guard Set(input.items.map(\.itemId)).count == input.items.count else {
            throw DomainError.invalidInput(field: "items", reason: "must not list an item twice")
        }
        for (index, line) in input.items.enumerated() {
            _ = try Validate.integer(line.quantity, field: "items[\(index)].quantity", in: Order.quantities)
        }
        let discount = input.discountCents ?? 0
        guard discount >= 0 else {
            throw DomainError.invalidInput(field: "discountCents", reason: "must not be negative")
        }
        let address = try Validate.text(input.deliveryAddress, field: "deliveryAddress", maximumLength: Order.maximumAddressLength)

        _ = try await users.activeUser(input.userId)
        let found = try await menu.items(ids: input.items.map(\.itemId))
        let byId = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [Order.Line] = []
        for line in input.items {
            guard let item = byId[line.itemId] else {
                throw DomainError.notFound(entity: "menu item", id: line.itemId.rawValue)
            }
            lines.append(Order.Line(itemId: item.id, quantity: line.quantity, unitPriceCents: item.price.minorUnits))
        }
        let currencies = Set(found.map(\.price.currency))
        guard currencies.count == 1, let currency = currencies.first else {
            throw DomainError.invalidInput(field: "items", reason: "must all be priced in one currency")
        }
        let subtotal = Order.subtotal(of: lines)
        guard discount <= subtotal else {
            throw DomainError.invalidInput(field: "discountCents", reason: "must not exceed the subtotal of \(subtotal)")
        }
        guard subtotal - discount >= Order.minimumValueCents else {
            throw DomainError.businessRule(.orderBelowMinimum(minimumMinorUnits: Order.minimumValueCents, actualMinorUnits: subtotal - discount))
        }
        // Only now is subtotal − discount known to be non-negative, as the tax computation requires.
        let order = Order(id: ids.make(), userId: input.userId, lines: lines, currency: currency, discountCents: discount, taxRate: taxRate.currentTaxRate(), deliveryAddress: address, createdAt: clock.now())
        switch try await orders.place(order, claim: claim) {
        case .placed(let placed):
            return placed
        case .insufficientStock(let itemId, let requested, let available):
            throw DomainError.businessRule(.insufficientStock(itemId: itemId, requested: requested, available: available))
        case .unknownItem(let itemId):
            throw DomainError.notFound(entity: "menu item", id: itemId.rawValue)
        }
    }
}

import WireJSON
import WireContract

/// The contract's order arithmetic, computed independently of the service's own code.
enum OrderArithmetic {
    /// (amount × parts per million / 1,000,000) rounded half-to-even.
    static func tax(on amount: Int, partsPerMillion: Int) -> Int {
        let product = amount * partsPerMillion
        let quotient = product / 1_000_000
        let remainder = product % 1_000_000
        if remainder * 2 > 1_000_000 || (remainder * 2 == 1_000_000 && quotient % 2 == 1) { return quotient + 1 }
        return quotient
    }

    /// What is wrong with `order`'s numbers; empty when they are consistent. `prices` are the
    /// known unit prices by item id.
    static func problems(in order: JSONValue, prices: [String: Int], taxPartsPerMillion: Int, currency: String) -> [String] {
        var problems: [String] = []
        var subtotal = 0
        for line in order[WireMember.items.name]?.arrayValue ?? [] {
            guard let quantity = line[WireMember.quantity.name]?.intValue, let unit = line[WireMember.unitPriceCents.name]?.intValue, quantity >= 1 else {
                problems.append("a line without a positive quantity and a unit price: \(line)")
                continue
            }
            if let itemId = line[WireMember.itemId.name]?.stringValue, let price = prices[itemId], price != unit {
                problems.append("item \(itemId) charged \(unit) but priced \(price)")
            }
            subtotal += quantity * unit
        }
        guard let stated = order[WireMember.subtotalCents.name]?.intValue, let discount = order[WireMember.discountCents.name]?.intValue,
            let tax = order[WireMember.taxCents.name]?.intValue, let total = order[WireMember.totalCents.name]?.intValue
        else {
            return problems + ["missing or non-integer amounts"]
        }
        if (order[WireMember.items.name]?.arrayValue ?? []).isEmpty { problems.append("no lines") }
        if stated != subtotal { problems.append("subtotal \(stated) ≠ Σ quantity × unit price \(subtotal)") }
        if discount < 0 || discount > stated { problems.append("discount \(discount) outside 0…\(stated)") }
        if stated - discount < 1000 { problems.append("subtotal − discount \(stated - discount) is under the 1000 minimum") }
        let expectedTax = Self.tax(on: max(0, stated - discount), partsPerMillion: taxPartsPerMillion)
        if tax != expectedTax { problems.append("tax \(tax) ≠ \(expectedTax) at \(Double(taxPartsPerMillion) / 10_000)%") }
        if total != stated - discount + tax { problems.append("total \(total) ≠ subtotal − discount + tax = \(stated - discount + tax)") }
        if order[WireMember.currency.name]?.stringValue != currency { problems.append("currency \(Wording.plain(order[WireMember.currency.name])), expected \(currency)") }
        return problems
    }

    /// Whether two renderings of an order agree on everything but formatting.
    static func sameOrder(_ first: JSONValue, _ second: JSONValue) -> Bool {
        let keys = [
            WireMember.id, WireMember.userId, WireMember.items, WireMember.subtotalCents, WireMember.discountCents, WireMember.taxCents,
            WireMember.totalCents, WireMember.currency, WireMember.deliveryAddress, WireMember.createdAt,
        ].map(\.name)
        return keys.allSatisfy { first[$0] == second[$0] }
    }

    /// Whether an order as answered (its JSON, which must parse) and another rendering of it
    /// agree on everything but formatting.
    static func sameOrder(_ first: [UInt8], _ second: JSONValue) -> Bool {
        guard let parsed = try? JSONParser.parse(first) else { return false }
        return sameOrder(parsed, second)
    }
}

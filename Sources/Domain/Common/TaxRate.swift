/// A tax rate held exactly as parts per million (0.08 is 80,000 ppm), so tax is computed in
/// integer arithmetic with no binary floating-point rounding.
public struct TaxRate: Sendable, Hashable {
    /// The rate in parts per million, 0…1,000,000.
    public let partsPerMillion: Int

    /// Creates a rate from parts per million; `nil` outside 0…1,000,000 (0 % … 100 %).
    public init?(partsPerMillion: Int) {
        guard (0...1_000_000).contains(partsPerMillion) else { return nil }
        self.partsPerMillion = partsPerMillion
    }

    /// Parses a decimal fraction such as "0.08" or "0.0825" exactly; `nil` when it is not a
    /// plain decimal, has more than six decimal places, or lies outside 0…1.
    public init?(decimal text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), whole.count <= 7 else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 6, fraction.allSatisfy(\.isASCIIDigit), parts.count == 1 || !fraction.isEmpty else { return nil }
        while fraction.count < 6 { fraction += "0" }
        guard let wholeValue = Int(whole), let fractionValue = Int(fraction) else { return nil }
        self.init(partsPerMillion: wholeValue * 1_000_000 + fractionValue)
    }

    /// The rate as the shortest exact decimal fraction, e.g. "0.08", "0.0825", "0", "1"; what
    /// ``init(decimal:)`` parses back to the same rate.
    public var decimalText: String {
        let whole = partsPerMillion / 1_000_000
        var fraction = String(partsPerMillion % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// The tax on a non-negative amount, rounded half-to-even to the minor unit.
    public func tax(on amount: Int) -> Int {
        precondition(amount >= 0, "tax is computed on non-negative amounts")
        let product = amount.multipliedFullWidth(by: partsPerMillion)
        let (quotient, remainder) = 1_000_000.dividingFullWidth(product)
        let twice = remainder * 2
        if twice > 1_000_000 || (twice == 1_000_000 && quotient % 2 == 1) {
            return quotient + 1
        }
        return quotient
    }
}

extension Character {
    /// "0"…"9" only, unlike `isNumber`, which also accepts other scripts' digits.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension JSONValue {
    /// The value as canonical JSON text: equal for any two values that are equal as JSON values,
    /// however they were spelled. Object members are sorted by key (byte-wise UTF-8), a repeated
    /// key keeps its last value (as lookup does); a number that is an integer fitting 64 bits is
    /// written as that integer (`1`, `1.0` and `1e0` alike), any other as its nearest `Double` —
    /// unless that `Double` is a whole number (`0.0` for `1e-400`, `1e+17` for `1e17 + 0.5`),
    /// whose text would read back as an integer, or infinite (`1e400`), which JSON has no text
    /// for: such a number is written by its exact value (`1e-400`, `1000000000000000005e-1`,
    /// `1e400`; digits without leading or trailing zeros, then the power of ten). So the
    /// canonical text is its own canonical text, and no number's is an integer's or `null`.
    /// Strings are escaped the writer's one way; there is no white space.
    public func canonicalEncoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.canonicalValue(self)
        return writer.finish()
    }
}

extension JSONWriter {
    /// Writes `value` in the canonical form of ``JSONValue/canonicalEncoded()``.
    mutating func canonicalValue(_ value: JSONValue) {
        switch value {
        case .number(let number):
            if let integer = number.int64Value {
                int(integer)
            } else {
                let double = number.doubleValue
                if double.isFinite && double.rounded(.towardZero) != double {
                    self.double(double)
                } else {
                    // That Double's text ("0.0", "1e+17") would read back as an integer, and an
                    // infinite one is written `null`: other values, which members requiring an
                    // integer (or allowing null) take while they refuse this one.
                    rawJSON(number.exactText)
                }
            }
        case .array(let elements):
            beginArray()
            for element in elements { canonicalValue(element) }
            endArray()
        case .object(let object):
            // Keys compared byte for byte, as lookup compares them: a `String`-keyed dictionary
            // would take `"é"` and `"e\u{301}"` (canonically equivalent) for one key. Sorted by
            // key, then by position, so the last member of each key ends its run.
            let members = object.members
            let order = members.indices.sorted { a, b in
                let keyA = members[a].key.utf8, keyB = members[b].key.utf8
                return keyA.elementsEqual(keyB) ? a < b : keyA.lexicographicallyPrecedes(keyB)
            }
            beginObject()
            for (position, index) in order.enumerated() {
                let member = members[index]
                if position + 1 < order.count, members[order[position + 1]].key.utf8.elementsEqual(member.key.utf8) { continue }
                key(member.key)
                canonicalValue(member.value)
            }
            endObject()
        case .null, .bool, .string:
            self.value(value)
        }
    }
}

extension JSONValue {
    /// The value as canonical JSON text: equal for any two values that are equal as JSON values,
    /// however they were spelled. Object members are sorted by key (byte-wise UTF-8), a repeated
    /// key keeps its last value (as lookup does); a number that is an integer fitting 64 bits is
    /// written as that integer (`1`, `1.0` and `1e0` alike), any other as its nearest `Double`;
    /// strings are escaped the writer's one way; there is no white space.
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
                double(number.doubleValue)
            }
        case .array(let elements):
            beginArray()
            for element in elements { canonicalValue(element) }
            endArray()
        case .object(let object):
            var lastValue: [String: JSONValue] = [:]
            for member in object.members { lastValue[member.key] = member.value }
            beginObject()
            for key in lastValue.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                self.key(key)
                canonicalValue(lastValue[key]!)
            }
            endObject()
        case .null, .bool, .string:
            self.value(value)
        }
    }
}

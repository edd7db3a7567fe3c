import WireJSON

/// Reads typed members out of a reply object; every missing or mistyped member becomes
/// ``RestaurantClientError/malformedReply(_:)`` naming its path.
struct Fields {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue?, path: String) throws(RestaurantClientError) {
        guard let object = value?.objectValue else { throw .malformedReply("\(path): expected an object") }
        self.object = object
        self.path = path
    }

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    private func fail(_ key: String, _ expected: String) -> RestaurantClientError {
        .malformedReply("\(path).\(key): expected \(expected)")
    }

    func string(_ key: String) throws(RestaurantClientError) -> String {
        guard let value = object[key]?.stringValue else { throw fail(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws(RestaurantClientError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw fail(key, "a string or null") }
        return string
    }

    func int(_ key: String) throws(RestaurantClientError) -> Int {
        guard let value = object[key]?.intValue else { throw fail(key, "an integer") }
        return value
    }

    func double(_ key: String) throws(RestaurantClientError) -> Double {
        guard let value = object[key]?.doubleValue else { throw fail(key, "a number") }
        return value
    }

    func bool(_ key: String) throws(RestaurantClientError) -> Bool {
        guard let value = object[key]?.boolValue else { throw fail(key, "a boolean") }
        return value
    }

    func optionalBool(_ key: String) throws(RestaurantClientError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw fail(key, "a boolean") }
        return bool
    }

    func array(_ key: String) throws(RestaurantClientError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw fail(key, "an array") }
        return value
    }

    func strings(_ key: String) throws(RestaurantClientError) -> [String] {
        var result: [String] = []
        for element in try array(key) {
            guard let string = element.stringValue else { throw fail(key, "an array of strings") }
            result.append(string)
        }
        return result
    }

    /// Decodes each element of the array `key` with `make`.
    func list<T>(_ key: String, _ make: (Fields) throws(RestaurantClientError) -> T) throws(RestaurantClientError) -> [T] {
        var result: [T] = []
        for (index, element) in try array(key).enumerated() {
            result.append(try make(try Fields(element, path: "\(path).\(key)[\(index)]")))
        }
        return result
    }

    /// The nested object `key`.
    func nested(_ key: String) throws(RestaurantClientError) -> Fields {
        try Fields(object[key], path: "\(path).\(key)")
    }
}

import WireJSON

/// One admin request: `{"v":1,"id":"…","op":"<op>","params":{…}}`.
public struct AdminRequest: Sendable {
    /// The operation, e.g. `status`.
    public let op: String
    /// Its parameters (`{}` when absent).
    public let params: JSONObject
    /// The caller's correlation id.
    public let id: String?

    /// Decodes a body; throws the contract's error for a malformed one.
    static func decode(_ body: [UInt8]) throws(WireError) -> AdminRequest {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw WireError(.malformed, "the body is not valid UTF-8 JSON: \(error)")
        }
        guard case .object(let object) = value else { throw WireError(.malformed, "the body is not a JSON object") }
        guard let version = object["v"] else { throw WireError(.malformed, "the member v is missing") }
        guard version.intValue == 1, version.stringValue == nil else {
            if version.intValue != nil || version.doubleValue != nil { throw WireError(.unsupportedVersion, "only v 1 is supported") }
            throw WireError(.malformed, "v must be the number 1")
        }
        var id: String?
        if let rawId = object["id"], rawId != .null {
            guard let text = rawId.stringValue, text.count <= WireRequest.maximumIdLength else {
                throw WireError(.malformed, "id must be a string of at most \(WireRequest.maximumIdLength) characters")
            }
            id = text
        }
        guard let op = object["op"]?.stringValue, !op.isEmpty else {
            throw WireError(.invalidInput, "op is missing or not a string (one of: \(AdminRequest.operations.joined(separator: ", ")))")
        }
        var params = JSONObject()
        if let rawParams = object["params"], rawParams != .null {
            guard case .object(let given) = rawParams else { throw WireError(.malformed, "params must be an object") }
            params = given
        }
        return AdminRequest(op: op, params: params, id: id)
    }

    /// The operations of the contract.
    public static let operations = ["status", "endpoints", "stats", "health", "drain", "resume", "shutdown", "backup", "setLogLevel"]
}

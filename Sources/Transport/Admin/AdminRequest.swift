import WireJSON

/// One admin request: `{"v":1,"id":"…","op":"<op>","params":{…}}`.
public struct AdminRequest: Sendable {
    /// The operation, e.g. `status`.
    public let op: String
    /// Its parameters (`{}` when absent).
    public let params: JSONObject
    /// The caller's correlation id.
    public let id: String?

    /// Decodes a body with the envelope rules of every request (`v`, `id`, `params`,
    /// `deadlineMs`; see ``WireRequest``), plus a required string `op`.
    static func decode(_ body: [UInt8]) throws(WireRequest.Rejection) -> AdminRequest {
        // Typed throws cannot cross withUnsafeBytes' rethrows, so carry the result out.
        let decoded: Result<(request: WireRequest, members: JSONObject), WireRequest.Rejection> = body.withUnsafeBytes { bytes in
            do throws(WireRequest.Rejection) { return .success(try WireRequest.decodeEnvelope(bytes)) } catch { return .failure(error) }
        }
        let (request, members) = try decoded.get()
        guard let op = members["op"]?.stringValue, !op.isEmpty else {
            throw WireRequest.Rejection(
                id: request.id,
                error: WireError(.invalidInput, "op is missing or not a string (one of: \(AdminRequest.operations.joined(separator: ", ")))")
            )
        }
        return AdminRequest(op: op, params: members["params"]?.objectValue ?? JSONObject(), id: request.id)
    }

    /// The operations of the contract.
    public static let operations = ["status", "endpoints", "stats", "health", "drain", "resume", "shutdown", "backup", "setLogLevel"]
}

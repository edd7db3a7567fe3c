import WireContract
import WireJSON

/// One admin request: `{"v":1,"id":"…","op":"<op>","params":{…}}`.
public struct AdminRequest: Sendable, EndpointRequest {
    /// The operation.
    public let op: AdminOperation
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
        let key = WireEnvelope.Key.op.name
        guard let name = members[key]?.stringValue, !name.isEmpty else {
            throw WireRequest.Rejection(
                id: request.id, error: WireError(.invalidInput, "\(key) is missing or not a string (one of: \(AdminOperation.namesList))")
            )
        }
        guard let op = AdminOperation(rawValue: name) else {
            throw WireRequest.Rejection(id: request.id, error: WireError(.invalidInput, "\(key) \(name) is not one of: \(AdminOperation.namesList)"))
        }
        return AdminRequest(op: op, params: members[WireEnvelope.Key.params.name]?.objectValue ?? JSONObject(), id: request.id)
    }
}

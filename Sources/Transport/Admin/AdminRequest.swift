import WireContract
import WireJSON

/// One admin request: `{"v":1,"id":"…","op":"<op>","params":{…}}`.
public struct AdminRequest: Sendable {
    /// The operation.
    public let op: AdminOperation
    /// Its parameters (`{}` when absent).
    public let params: JSONObject
    /// The caller's correlation id.
    public let id: String?

    /// The admin request in a body the socket thread decoded with the envelope rules of every
    /// request (`v`, `id`, `params`, `deadlineMs`; see ``WireRequest``): it needs a string `op`
    /// naming one of the operations, else it is refused `invalid_input`.
    init(_ request: WireRequest) throws(WireError) {
        let key = WireEnvelope.Key.op.name
        guard let name = request.operation, !name.isEmpty else {
            throw WireError(.invalidInput, "\(key) is missing or not a string (one of: \(AdminOperation.namesList))")
        }
        guard let op = AdminOperation(rawValue: name) else {
            throw WireError(.invalidInput, "\(key) \(name) is not one of: \(AdminOperation.namesList)")
        }
        self.init(op: op, params: request.params.object, id: request.id)
    }

    private init(op: AdminOperation, params: JSONObject, id: String?) {
        self.op = op
        self.params = params
        self.id = id
    }
}

/// A kind of request body that an endpoint's socket thread decodes before it hands the request
/// on: the use cases' ``WireRequest`` or the admin endpoint's ``AdminRequest``. Both apply the
/// envelope rules of wire protocol v1, so a bad body is answered alike on every endpoint.
protocol EndpointRequest: Sendable {
    /// Decodes one body frame; throws the error to answer and the id to echo with it.
    static func decode(_ body: [UInt8]) throws(WireRequest.Rejection) -> Self

    /// The caller's correlation id, echoed in the reply (also in the transport's own refusals).
    var id: String? { get }
}

extension WireRequest: EndpointRequest {}

import Domain
import WireContract
import WireJSON
@testable import Transport

// libFuzzer target: the request envelope decoder (Sources/Transport/Wire/WireRequest*.swift), on
// any body frame.
//
// Checks, beyond not crashing: the fast path (`decodeCommonShape`) never disagrees with the
// general decoder, and `decode` answers what they answer; a refusal is `malformed` or
// `unsupported_version`, its id (echoed in the reply) obeys the envelope's rules, and its error
// reply is a JSON object carrying exactly that id, code and message; a decoded request obeys the
// envelope's rules and, encoded again as an envelope, decodes to the same request.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let body = UnsafeRawBufferPointer(start: data, count: size)
    let general = Result { () throws(WireRequest.Rejection) -> WireRequest in try WireRequest.decodeGeneral(body) }
    let decoded = Result { () throws(WireRequest.Rejection) -> WireRequest in try WireRequest.decode(body) }

    if let fast = WireRequest.decodeCommonShape(body) {
        guard case .success(let request) = general else {
            require(false, "the fast path decoded \(describe(body)), the general decoder refused it")
            return 0
        }
        require(same(fast, request), "the fast path and the general decoder decode \(describe(body)) differently")
    }

    switch (decoded, general) {
    case (.success(let request), .success(let reference)):
        require(same(request, reference), "decode and the general decoder decode \(describe(body)) differently")
        checkRules(request, body)
        checkReencoding(request, body)
    case (.failure(let rejection), .failure(let reference)):
        require(rejection.id == reference.id && rejection.error == reference.error, "decode and the general decoder refuse \(describe(body)) differently")
        checkRejection(rejection, body)
    default:
        require(false, "decode and the general decoder disagree on whether \(describe(body)) is a request")
    }
    return 0
}

/// Whether two requests are the same, their params byte for byte.
private func same(_ a: WireRequest, _ b: WireRequest) -> Bool {
    a.id.map { Array($0.utf8) } == b.id.map { Array($0.utf8) } && identical(a.params.object, b.params.object)
        && a.deadlineMilliseconds == b.deadlineMilliseconds
        && a.idempotencyKey.map { Array($0.utf8) } == b.idempotencyKey.map { Array($0.utf8) }
        && a.operation.map { Array($0.utf8) } == b.operation.map { Array($0.utf8) }
}

/// What the envelope allows (Docs/PROTOCOL.md, "Request envelope").
private func checkRules(_ request: WireRequest, _ body: UnsafeRawBufferPointer) {
    if let id = request.id {
        require(id.count <= WireRequest.maximumIdLength, "decoded an id of \(id.count) characters from \(describe(body))")
    }
    if let deadline = request.deadlineMilliseconds {
        require(deadline >= 0, "decoded deadline \(deadline) from \(describe(body))")
    }
    if let key = request.idempotencyKey {
        require(IdempotencyClaim.keyLengths.contains(key.count), "decoded an idempotency key of \(key.count) characters from \(describe(body))")
    }
}

/// The request written back as an envelope (members in another order and spelling than
/// received, no white space) decodes, by both decoders, to the same request.
private func checkReencoding(_ request: WireRequest, _ body: UnsafeRawBufferPointer) {
    var writer = JSONWriter()
    writer.beginObject()
    if let key = request.idempotencyKey {
        writer.key(literal: WireEnvelope.Key.idempotencyKey.literal)
        writer.string(key)
    }
    writer.key(literal: WireEnvelope.Key.params.literal)
    writer.value(.object(request.params.object))
    if let deadline = request.deadlineMilliseconds {
        writer.key(literal: WireEnvelope.Key.deadline.literal)
        writer.int(deadline)
    }
    if let operation = request.operation {
        writer.key(literal: WireEnvelope.Key.op.literal)
        writer.string(operation)
    }
    writer.key(literal: WireEnvelope.Key.id.literal)
    if let id = request.id { writer.string(id) } else { writer.null() }
    writer.key(literal: WireEnvelope.Key.version.literal)
    writer.int(WireEnvelope.version)
    writer.endObject()
    let encoded = writer.finish()
    do throws(WireRequest.Rejection) {
        let again = try WireRequest.decode(encoded)
        require(same(again, request), "\(describe(body)) written back as \(describe(encoded)) decodes to another request")
        // Typed throws cannot cross withUnsafeBytes' rethrows, so carry the result out.
        let result = encoded.withUnsafeBytes { bytes in Result { () throws(WireRequest.Rejection) -> WireRequest in try WireRequest.decodeGeneral(bytes) } }
        let general = try result.get()
        require(same(general, request), "\(describe(body)) written back as \(describe(encoded)) decodes generally to another request")
    } catch {
        require(false, "\(describe(body)) written back as \(describe(encoded)) is refused: \(error.error)")
    }
}

/// A refusal is an envelope error, with an id the reply may echo, and its reply says so.
private func checkRejection(_ rejection: WireRequest.Rejection, _ body: UnsafeRawBufferPointer) {
    let code = rejection.error.code
    require(code == .malformed || code == .unsupportedVersion, "\(describe(body)) refused with \(code.rawValue)")
    if let id = rejection.id {
        require(id.count <= WireRequest.maximumIdLength, "\(describe(body)) refused echoing an id of \(id.count) characters")
    }
    let reply = WireReply.failure(id: rejection.id, error: rejection.error)
    guard case .object(let object)? = try? JSONParser.parse(reply) else {
        require(false, "the reply \(describe(reply)) to \(describe(body)) is not a JSON object")
        return
    }
    let expectedId: JSONValue = rejection.id.map(JSONValue.string) ?? .null
    require(object[WireEnvelope.Key.version.name]?.int64Value == Int64(WireEnvelope.version), "the reply \(describe(reply)) has no v")
    require(object[WireEnvelope.Key.id.name].map { identical($0, expectedId) } == true, "the reply \(describe(reply)) does not echo the id")
    require(object[WireEnvelope.Key.ok.name] == .bool(false), "the reply \(describe(reply)) is not ok: false")
    let error = object[WireEnvelope.Key.error.name]
    require(error?[WireEnvelope.Key.code.name]?.stringValue == code.rawValue, "the reply \(describe(reply)) does not carry the code")
    require(error?[WireEnvelope.Key.message.name]?.stringValue.map { $0.utf8.elementsEqual(rejection.error.message.utf8) } == true, "the reply \(describe(reply)) does not carry the message")
}

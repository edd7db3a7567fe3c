import Foundation
import ServiceApp
import WireContract
import WireJSON
import WireTestSupport
import ZeroMQ

/// Sends one admin request to the in-process service in `dataDirectory`, authenticated with the
/// local admin key pair its `endpoints.json` names; `nil` when no reply came within 5 s.
func adminCall(dataDirectory: String, op: String, params: JSONValue = [:]) async throws -> Reply? {
    let file = try EndpointsFile.read(from: dataDirectory)
    guard let address = file.admin, let serverKey = file.adminServerKey,
          let publicFile = file.adminClientPublicKeyFile, let secretFile = file.adminClientSecretKeyFile else {
        throw AdminCallFailure(description: "endpoints.json in \(dataDirectory) names no admin endpoint and keys")
    }
    let publicKey = try String(contentsOfFile: publicFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let secretKey = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let body = JSONValue.object(JSONObject([("v", 1), ("id", .string(op)), ("op", .string(op)), ("params", params)])).encoded()
    return try await onThread {
        try dealerCall(address, body) { try $0.setCurveClient(serverKey: serverKey, publicKey: publicKey, secretKey: secretKey) }
    }
}

/// The service's `endpoints.json` lacks what an admin call needs.
struct AdminCallFailure: Error, CustomStringConvertible {
    let description: String
}

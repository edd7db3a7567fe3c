import LoadEngine
import ZeroMQ

extension LoadInstance {
    /// Reads the instance's endpoints.json (see ``ServiceEndpoints/locate(endpointsFile:)``) and,
    /// for a CURVE instance, the client key files of `options` (or svcd's local admin key).
    static func locate(name: String, endpointsFile: String, options: CommonOptions) throws(CtlFailure) -> LoadInstance {
        switch ServiceEndpoints.locate(endpointsFile: endpointsFile) {
        case .success(let endpoints):
            let credentials = try CurveCredentials.useCases(of: endpoints, source: endpointsFile, options: options)
            return LoadInstance(
                name: name, endpoints: endpoints.file,
                credentials: credentials.map {
                    CurveClientKeys(serverPublicKey: $0.serverKey, client: ZMQCurveKeyPair(publicKey: $0.publicKey, secretKey: $0.secretKey))
                })
        case .failure(let absence):
            return LoadInstance(name: name, absence: absence.description)
        }
    }
}

/// One svcd instance a stress run targets, as found when the run started.
struct StressInstance: Sendable {
    /// How the operator named it: its data directory, or the path of its endpoints.json.
    let name: String
    /// The absolute path of its endpoints.json.
    let endpointsFile: String
    /// What its endpoints.json said, if it was running when the run started.
    let endpoints: ServiceEndpoints?
    /// Why it was not found running, if it was not.
    let absence: String?
    /// The CURVE credentials for its use-case endpoints when it runs with `--client-keys`.
    let credentials: CurveCredentials?

    /// Reads the instance's endpoints.json (see ``ServiceEndpoints/locate(endpointsFile:)``) and,
    /// for a CURVE instance, the client key files of `options` (or svcd's local admin key).
    static func locate(name: String, endpointsFile: String, options: CommonOptions) throws(CtlFailure) -> StressInstance {
        switch ServiceEndpoints.locate(endpointsFile: endpointsFile) {
        case .success(let endpoints):
            let credentials = try CurveCredentials.useCases(of: endpoints, source: endpointsFile, options: options)
            return StressInstance(name: name, endpointsFile: endpointsFile, endpoints: endpoints, absence: nil, credentials: credentials)
        case .failure(let absence):
            return StressInstance(name: name, endpointsFile: endpointsFile, endpoints: nil, absence: absence.description, credentials: nil)
        }
    }
}

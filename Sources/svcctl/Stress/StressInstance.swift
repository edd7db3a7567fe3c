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

    /// Reads the instance's endpoints.json (see ``ServiceEndpoints/locate(endpointsFile:)``).
    static func locate(name: String, endpointsFile: String) -> StressInstance {
        switch ServiceEndpoints.locate(endpointsFile: endpointsFile) {
        case .success(let endpoints):
            StressInstance(name: name, endpointsFile: endpointsFile, endpoints: endpoints, absence: nil)
        case .failure(let absence):
            StressInstance(name: name, endpointsFile: endpointsFile, endpoints: nil, absence: absence.description)
        }
    }
}

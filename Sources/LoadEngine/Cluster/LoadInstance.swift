import WireContract

/// One svcd instance a load run targets, as found when the run started.
public struct LoadInstance: Sendable {
    /// How the operator named it: its data directory, or the path of its endpoints.json.
    public let name: String
    /// What its endpoints.json said, if it was running when the run started.
    public let endpoints: EndpointsFile?
    /// Why it was not found running, if it was not.
    public let absence: String?
    /// The CURVE keys for its use-case endpoints when it runs with `--client-keys`.
    public let credentials: CurveClientKeys?

    /// A running instance.
    public init(name: String, endpoints: EndpointsFile, credentials: CurveClientKeys?) {
        self.name = name
        self.endpoints = endpoints
        self.absence = nil
        self.credentials = credentials
    }

    /// An instance not running at the start, and why.
    public init(name: String, absence: String) {
        self.name = name
        self.endpoints = nil
        self.absence = absence
        self.credentials = nil
    }

    /// Its process id at the start, if it was running.
    public var pid: Int? { endpoints.map { Int($0.pid) } }

    /// The address of `useCase`; a failure naming the use cases it serves when it does not
    /// serve that one (`nil` when it is not running).
    func address(of useCase: UseCaseName) throws(LoadFailure) -> String? {
        guard let endpoints else { return nil }
        if let address = endpoints.useCases[useCase] { return address }
        let served = UseCaseName.allCases.filter { endpoints.useCases[$0] != nil }.map(\.rawValue).joined(separator: ", ")
        throw LoadFailure(.badTarget, "svcd does not serve \(useCase.rawValue); it serves: \(served)")
    }
}

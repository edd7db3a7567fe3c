import Domain

/// One use case as the transport hosts it: its name and a handler that reads the wire params,
/// runs the use case and returns the result to encode.
public struct UseCaseRoute: Sendable {
    /// The use case.
    public let name: UseCaseName
    /// Decodes params, executes, returns the result; throws `WireError` or domain errors.
    public let handle: @Sendable (Params) async throws -> UseCaseResult

    /// Creates a route.
    public init(name: UseCaseName, handle: @escaping @Sendable (Params) async throws -> UseCaseResult) {
        self.name = name
        self.handle = handle
    }
}

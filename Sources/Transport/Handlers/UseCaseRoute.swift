import Domain
import WireContract

/// One use case as the transport hosts it: its name and a handler that reads the wire params,
/// runs the use case and returns the result to encode. A write's handler is also given the
/// request's idempotency claim, if it carried a key.
public struct UseCaseRoute: Sendable {
    /// The use case.
    public let name: UseCaseName
    /// Where its endpoint runs its requests.
    public let path: ServingPath
    /// Decodes params, executes (binding the claim, for a write), returns the result; throws
    /// `WireError`, domain errors or ``IdempotentReplay``.
    ///
    /// `nonisolated(nonsending)`: it runs on the caller's executor (the endpoint's host actor on
    /// its socket thread). A plain `async` closure would first switch to the generic executor,
    /// which under the socket thread's task-executor preference is one more queued job per
    /// request, and one more on the way back.
    public let handle: nonisolated(nonsending) @Sendable (Params, IdempotencyClaim?) async throws -> UseCaseResult

    /// Creates a route.
    public init(
        name: UseCaseName, path: ServingPath, handle: nonisolated(nonsending) @escaping @Sendable (Params, IdempotencyClaim?) async throws -> UseCaseResult
    ) {
        self.name = name
        self.path = path
        self.handle = handle
    }
}

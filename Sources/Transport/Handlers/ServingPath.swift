import Domain

/// Where an endpoint runs its use case's requests: decided once, when the route is made, from
/// whether the use case writes (the contract's ``WireContract/UseCaseName/writes``) and, for a
/// read, whether the store's repositories hold every read it makes
/// (``Domain/UseCaseCatalog/answersFromMemory(_:)``). Nothing else names use cases for it.
public enum ServingPath: Sendable, Hashable {
    /// A read answered from memory: on the endpoint's socket thread, one after another in arrival
    /// order, without a task per request (the cheapest path).
    case inline
    /// A read that waits for the database: each request its own task, on the store's read
    /// executor if it has one, so one slow read does not hold up the reads behind it.
    case waitingRead
    /// A write: each request its own task on the global executor, so concurrent writes share
    /// group commits.
    case write

    /// The path of a read that makes `reads`, over the repositories of `catalog`.
    public static func read(_ reads: Set<RepositoryRead>, in catalog: UseCaseCatalog) -> ServingPath {
        catalog.answersFromMemory(reads) ? .inline : .waitingRead
    }
}

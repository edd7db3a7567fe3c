import Domain

/// What a successful write stored, as its store's write step records it in the same atomic step:
/// the result an idempotency key is bound to, and the event it appends (none when the write
/// changed nothing).
struct StoredWrite: Sendable {
    /// The result a claim on the write's idempotency key binds.
    let result: WriteResult
    /// The event the write appends; `nil` for a write that changed nothing.
    let event: DomainEvent?

    /// A write that changed something: its result and its event.
    static func changed(_ result: WriteResult, _ event: DomainEvent) -> StoredWrite {
        StoredWrite(result: result, event: event)
    }

    /// A write that succeeded without changing anything (saving an existing favourite, …): its
    /// key still binds the result, and nothing is appended to the event log.
    static func unchanged(_ result: WriteResult) -> StoredWrite {
        StoredWrite(result: result, event: nil)
    }
}

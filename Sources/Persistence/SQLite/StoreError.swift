/// Failures of the SQLite store that are not SQLite's own errors.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store was closed; nothing was written.
    case closed
    /// SQLite rolled a batch's transaction back on its own (disk full, I/O error); nothing of
    /// the batch was written.
    case transactionLost
    /// A row could not become a domain value (e.g. an unknown currency code). Stored data is
    /// never replaced by a default.
    case unmappable(table: String, column: String, value: String)
    /// A conditional write found the database different from what the same transaction had
    /// just read; the write was rolled back.
    case inconsistentWrite(String)
    /// `PRAGMA integrity_check` reported problems.
    case integrityCheckFailed([String])
    /// The writer connection would not sync the WAL at every commit (`PRAGMA synchronous`
    /// answered `mode`, not FULL): the store refuses to open rather than acknowledge writes a
    /// power cut could lose.
    case syncNotEveryCommit(mode: Int?)

    public var description: String {
        switch self {
        case .closed: "the store is closed"
        case .transactionLost: "SQLite rolled the transaction back; nothing of it was written"
        case .unmappable(let table, let column, let value): "stored \(table).\(column) value \(value) cannot be mapped to the domain"
        case .inconsistentWrite(let what): "inconsistent write: \(what); rolled back"
        case .integrityCheckFailed(let problems): "integrity check failed: \(problems.prefix(5).joined(separator: "; "))"
        case .syncNotEveryCommit(let mode): "SQLite would not sync every commit (PRAGMA synchronous = \(mode.map(String.init) ?? "nothing"), not FULL)"
        }
    }
}

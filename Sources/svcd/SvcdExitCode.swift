import Domain
import ServiceApp

/// svcd's exit statuses (`sysexits.h` where one fits), documented in Docs/OPERATIONS.md.
enum SvcdExitCode {
    /// Stopped cleanly (SIGTERM, SIGINT or the admin `shutdown` op).
    static let stopped: Int32 = 0
    /// Failed while running, for a reason not listed below; the message says which.
    static let failed: Int32 = 1
    /// `EX_USAGE`: a bad flag or flag value; nothing was started.
    static let usage: Int32 = 64
    /// `EX_UNAVAILABLE`: the database (`--store postgres`) did not answer at start-up; trying
    /// again later may work.
    static let storeUnreachable: Int32 = 69
    /// `EX_OSERR`: an endpoint (or the `--http-port` listener) could not bind its address (port
    /// in use, not an address of this machine).
    static let cannotBind: Int32 = 71
    /// `EX_CANTCREAT`: the data directory is in use by another svcd (its lock is held).
    static let dataDirectoryInUse: Int32 = 73
    /// `EX_IOERR`: the data directory or the store's files cannot be created, opened or
    /// restricted (its key files included), or its disk is full.
    static let dataDirectoryUnusable: Int32 = 74
    /// `EX_CONFIG`: the database refused the configuration (`--store postgres`: the role, its
    /// password, the database's name or the role's privileges); restarting cannot help.
    static let misconfigured: Int32 = 78

    /// The status for a start-up `error`.
    static func forStartup(_ error: any Error) -> Int32 {
        switch error {
        case is DataDirectoryInUse: dataDirectoryInUse
        case is DataDirectoryError, is DataDirectoryFileError, is AdminKeyError: dataDirectoryUnusable
        case RepositoryFailure.storageFull: dataDirectoryUnusable
        case is EndpointBindFailure, is HTTPListenFailure: cannotBind
        case let failure as StoreOpenFailure where failure.misconfigured: misconfigured
        case let failure as StoreOpenFailure: failure.reachable ? dataDirectoryUnusable : storeUnreachable
        default: failed
        }
    }
}

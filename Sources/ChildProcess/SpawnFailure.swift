#if canImport(Glibc)
import Glibc
#endif

/// A child process that could not be started: `posix_spawn` failed (no such executable, not
/// executable, out of processes).
public struct SpawnFailure: Error, CustomStringConvertible {
    /// The executable that was to be started.
    public let executable: String
    /// The `errno` value `posix_spawn` returned.
    public let code: Int32

    /// A failure to start `executable` with `posix_spawn`'s error `code`.
    public init(executable: String, code: Int32) {
        self.executable = executable
        self.code = code
    }

    /// "cannot start EXECUTABLE: " and the system's text for the error.
    public var description: String {
        "cannot start \(executable): \(String(cString: strerror(code)))"
    }
}

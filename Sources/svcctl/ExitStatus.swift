import ArgumentParser
import Foundation

/// svcctl's exit codes (`sysexits.h` where one fits).
enum ExitStatus {
    /// Success.
    static let ok: Int32 = 0
    /// The service answered with an error.
    static let serviceError: Int32 = 1
    /// `health`: svcd answered, and at least one of its checks failed (`healthy: false`).
    static let unhealthy: Int32 = 2
    /// `status`: no svcd process is running.
    static let notRunning: Int32 = 3
    /// `EX_USAGE`: bad command line.
    static let usage: Int32 = 64
    /// `EX_DATAERR`: bad input data (e.g. an invalid JSON argument).
    static let dataError: Int32 = 65
    /// `EX_UNAVAILABLE`: the service is not there or refused the connection.
    static let unavailable: Int32 = 69
    /// `EX_TEMPFAIL`: no answer within the timeout, or (`call`) an answer whose outcome is unknown.
    static let timedOut: Int32 = 75
}

/// A failure that ends svcctl with a message on stderr and a specific exit code.
struct CtlFailure: Error, CustomStringConvertible {
    /// The process exit code.
    let exitCode: Int32
    /// What went wrong, in plain words (printed to stderr).
    let message: String
    /// Whether the service gave no answer at all (connection refused or timed out), which
    /// `status` reports as "not running".
    let noAnswer: Bool

    init(_ exitCode: Int32, _ message: String, noAnswer: Bool = false) {
        self.exitCode = exitCode
        self.message = message
        self.noAnswer = noAnswer
    }

    var description: String { message }
}

/// Runs a command body, turning a ``CtlFailure`` into its message on stderr and its exit code.
func reportingFailures(_ body: () throws(CtlFailure) -> Void) throws {
    do {
        try body()
    } catch {
        if !error.message.isEmpty { printError(error.message) }
        throw ExitCode(error.exitCode)
    }
}

/// Writes `svcctl: <message>` and a newline to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("svcctl: \(message)\n".utf8))
}

/// Writes `text` and a newline to stdout.
func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

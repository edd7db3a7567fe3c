import ArgumentParser

/// Options every subcommand accepts whatever it talks to: output style, timeout and optional
/// non-default admin credentials (always files; keys never travel on argv). Where the service
/// lives is separate: one data directory for most commands (``GlobalOptions``), several
/// instances for `stress` and `events` (``InstanceTargetOptions``).
struct CommonOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on stdout (for `call`: the whole reply envelope).")
    var json = false

    @Option(name: .long, help: "Seconds to wait for an answer.")
    var timeout: Double = 5

    @Option(name: .long, help: "File with the client's CURVE public key, for the admin endpoint and, when svcd runs with --client-keys, the use-case endpoints (default: svcd's local admin key).")
    var publicKeyFile: String?

    @Option(name: .long, help: "File with the client's CURVE secret key (see --public-key-file; default: svcd's local admin key).")
    var secretKeyFile: String?

    func validate() throws {
        guard timeout > 0, timeout <= 86_400, timeout.isFinite else {
            throw ValidationError("--timeout must be a number of seconds greater than 0 (at most 86400)")
        }
        guard (publicKeyFile == nil) == (secretKeyFile == nil) else {
            throw ValidationError("--public-key-file and --secret-key-file must be given together")
        }
    }

    /// The timeout in whole milliseconds (at least 1).
    var timeoutMilliseconds: Int {
        max(1, Int((timeout * 1000).rounded()))
    }
}

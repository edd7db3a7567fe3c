/// Why a load run, or one of its set-up or check calls, could not go on, in plain words.
public struct LoadFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of trouble it is; a command maps it to its exit status.
    public enum Kind: Sendable, Hashable {
        /// No instance to talk to: none running, a socket or context that cannot be made, a
        /// connection that fails.
        case unavailable
        /// A request that had to be answered was not, within the time allowed.
        case noAnswer
        /// The service answered a request that had to succeed with an error, or with a reply
        /// the client cannot read.
        case serviceError
        /// What the load was pointed at is not what it needs: instances that do not share one
        /// store, an instance that does not serve a use case the run sends.
        case badTarget
    }

    /// What kind of trouble.
    public let kind: Kind
    /// What went wrong.
    public let message: String

    /// A failure of `kind`, described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// The monitoring listener could not bind its address; start-up stops with this message.
public struct HTTPListenFailure: Error, CustomStringConvertible {
    /// `host:port` as given to `--host` and `--http-port`.
    public let address: String
    /// Why, as the system put it (e.g. "Address already in use").
    public let reason: String

    /// "cannot listen for HTTP on 127.0.0.1:9100: Address already in use".
    public var description: String { "cannot listen for HTTP on \(address): \(reason)" }
}

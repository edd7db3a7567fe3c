import WireContract
/// Where one svcd instance of a cluster listens, as a ``RestaurantClient`` finds it.
public enum SvcdInstance: Sendable, Hashable {
    /// The instance's `endpoints.json` (absolute or relative to the working directory). It is
    /// read when a call first needs it and read again whenever the file changes (svcd replaces
    /// it atomically on every start, possibly with other ports). While it cannot be read the
    /// instance counts as down.
    case endpointsFile(String)
    /// Fixed use-case addresses (e.g. `tcp://10.0.0.5:7107`); a use case missing here is not
    /// served by this instance.
    case addresses([UseCaseName: String])
    /// Fixed use-case addresses of an svcd started with `--client-keys`: CURVE with this server
    /// public key (its `endpoints.json`'s `useCaseServerKey`).
    case curveAddresses([UseCaseName: String], serverKey: String)
    /// An instance reached with its own client key pair instead of
    /// ``RestaurantClientOptions/clientKeys`` (for clusters whose instances list different keys).
    indirect case keyed(SvcdInstance, clientKeys: ClientKeys)

    /// The instance without its own keys, and those keys.
    var unkeyed: (location: SvcdInstance, clientKeys: ClientKeys?) {
        if case .keyed(let inner, let keys) = self { return (inner.unkeyed.location, keys) }
        return (self, nil)
    }
}

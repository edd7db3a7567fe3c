/// Where one svcd instance of a cluster listens, as a ``RestaurantClient`` finds it.
public enum SvcdInstance: Sendable, Hashable {
    /// The instance's `endpoints.json` (absolute or relative to the working directory). It is
    /// read when a call first needs it and read again whenever the file changes (svcd replaces
    /// it atomically on every start, possibly with other ports). While it cannot be read the
    /// instance counts as down.
    case endpointsFile(String)
    /// Fixed use-case addresses (e.g. `tcp://10.0.0.5:7107`); a use case missing here is not
    /// served by this instance.
    case addresses([UseCase: String])
}

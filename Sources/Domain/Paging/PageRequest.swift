/// Paging defaults shared by every listing.
public enum PageRequest {
    /// Page size when the caller gives none.
    public static let defaultLimit = 50
    /// Accepted page sizes.
    public static let limitRange = 1...500
}

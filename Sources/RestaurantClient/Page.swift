/// One page of a paged listing (ListRestaurants, GetReviews, ListOrders, LoadFeed).
public struct Page<Element: Sendable & Hashable>: Sendable, Hashable {
    /// The rows of this page.
    public var items: [Element]
    /// Pass this as `cursor` (with the same other parameters) for the next page; `nil` on the
    /// last page. Opaque: never build or edit it.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [Element], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

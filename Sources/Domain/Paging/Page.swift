/// One page of a listing and the cursor that continues it (`nil` on the last page).
public struct Page<Element: Sendable>: Sendable {
    /// The page's elements in listing order.
    public let items: [Element]
    /// Pass this back to get the next page; `nil` when there is none.
    public let nextCursor: PageCursor?

    /// Creates a page.
    public init(items: [Element], nextCursor: PageCursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Equatable where Element: Equatable {}

/// An error reply to one of the calls of ``BatchCaller/allPages(_:_:listKey:limit:)``.
struct PageError: Error, CustomStringConvertible {
    /// `code: message`.
    let description: String
}

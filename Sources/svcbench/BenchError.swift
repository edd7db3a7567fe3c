/// A failure that ends the benchmark, with a message for the operator.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, in plain words.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

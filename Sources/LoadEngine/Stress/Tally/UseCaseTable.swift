import WireContract

/// A value per use case, made on first use, kept by the use case's place in
/// `UseCaseName.allCases` (``StressRequest/useCaseIndex``): a use case's hash is its name's, too
/// slow for every request.
struct UseCaseTable<Value> {
    private var values = [Value?](repeating: nil, count: StressRequest.useCaseOrder.count)

    /// An empty table.
    init() {}

    /// Changes the value of the use case at `index`, made by `make` first when it has none.
    mutating func update(at index: Int, makingIt make: () -> Value, _ change: (inout Value) -> Void) {
        if values[index] == nil { values[index] = make() }
        change(&values[index]!)
    }

    /// The values made, by use case.
    var byName: [UseCaseName: Value] {
        var named: [UseCaseName: Value] = [:]
        for (index, value) in values.enumerated() {
            if let value { named[StressRequest.useCaseOrder[index]] = value }
        }
        return named
    }
}

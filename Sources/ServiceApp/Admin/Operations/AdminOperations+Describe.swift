import WireContract
import WireJSON

extension AdminOperations {
    /// `describe`: the JSON Schemas of the contract (``ServiceDescription``).
    func describe() -> JSONValue {
        ServiceDescription.json
    }
}

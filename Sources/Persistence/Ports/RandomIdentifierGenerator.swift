import Domain
import Foundation

/// Random version-4 UUIDs in lower case: unique without coordination between processes.
public struct RandomIdentifierGenerator: IdentifierGenerator {
    /// Creates the generator.
    public init() {}

    /// A new random id.
    public func makeIdentifier() -> String {
        UUID().uuidString.lowercased()
    }
}

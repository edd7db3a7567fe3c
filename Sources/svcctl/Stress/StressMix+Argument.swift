import ArgumentParser
import LoadEngine

extension StressMix: ExpressibleByArgument {
    /// `--mix KIND=WEIGHT,…`.
    public init?(argument: String) {
        self.init(argument)
    }

    /// Describes the accepted syntax in `--help`.
    static let syntax = "KIND=WEIGHT,… with KIND one of \(StressOperationKind.allCases.map(\.rawValue).joined(separator: ", "))"
}

import ArgumentParser
import LoadEngine

extension StressMix: ExpressibleByArgument {
    /// `--mix KIND=WEIGHT,…` or `--mix NAME`.
    public init?(argument: String) {
        self.init(nameOrWeights: argument)
    }

    /// Describes the accepted syntax in `--help`.
    static let syntax =
        "\(named.map(\.name).joined(separator: "|"))|KIND=WEIGHT,… with KIND one of \(StressOperationKind.allCases.map(\.rawValue).joined(separator: ", "))"
}

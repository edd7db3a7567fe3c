/// The facts of a caller's line in `svcd --client-keys FILE`, `KEY [NAME] [allow=A,B,…] [rate=R]`
/// (fields separated by spaces), and of the per-caller counts: spelled here, used by svcd's
/// parser, `svcctl keygen`, `svcctl stats` and the tests.
public enum CallerGrant {
    /// The caller of every request when svcd runs without `--client-keys`.
    public static let anonymous = "anonymous"
    /// The permission of the two event endpoints (the live stream and the log) in `allow`.
    public static let events = "events"
    /// `allow=A,B,…`: the use cases (and ``events``) the caller may use; all when absent.
    public static let allowOption = "allow"
    /// `rate=R`: the caller's requests per second on each instance (a token bucket, burst R).
    public static let rateOption = "rate"
    /// The separator of the names in `allow`.
    public static let allowSeparator: Character = ","
    /// A caller without a NAME is named by its key's first this many characters.
    public static let defaultNameLength = 8
    /// The Prometheus counter of answered requests by `caller`, `use_case` and `code`.
    public static let requestsMetric = "svc_caller_requests_total"

    /// Every name `allow` may list: each use case's, then ``events``.
    public static var permissions: [String] {
        UseCaseName.allCases.map(\.rawValue) + [events]
    }
}

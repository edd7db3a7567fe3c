import Testing

/// The parent of every stress suite, run one test at a time: each loads the machine on purpose,
/// and overlapping them would make each other's figures (sustainable rate, RSS, latency) and
/// timeouts meaningless. `.serialized` applies to the nested suites too.
@Suite(.serialized)
enum StressSuite {}

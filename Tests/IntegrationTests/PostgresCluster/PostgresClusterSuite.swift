import SvcdTestSupport
import Testing

/// The parent of the suites that run three svcd processes as one cluster on one PostgreSQL
/// database (a throwaway server for them all; a database of its own per test), talking to them
/// only from outside, over the wire, svcctl and psql.
///
/// One test at a time: each starts three debug svcd processes and races hundreds of requests
/// through them, and several of these at once on two cores would turn the latency bounds the
/// tests check into a measure of the machine. `.serialized` applies to the nested suites too.
@Suite(.serialized, .sharedPostgres)
enum PostgresClusterSuite {}

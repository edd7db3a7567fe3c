/// Arrays bound to a prepared statement, written so that PostgreSQL plans the statement once per
/// connection rather than at every execution.
///
/// PostgreSQL's plan cache keeps planning a prepared statement for its parameters' values (a
/// custom plan) as long as the plan it made without them (the generic one) is estimated to cost
/// more. With an array parameter the two disagree: a custom plan knows the array's length (one
/// item, one order line), the generic one guesses ten, so the generic plan never wins and every
/// execution is planned again — measured with `pg_stat_statements.track_planning`, PlaceOrder's
/// statements spent 0.4–0.5 ms planning per order, more than executing. An array read through a
/// sub-select (`(SELECT $1::text[])`) is a value neither plan knows, both estimate alike, and the
/// cache settles on the generic plan from the sixth execution.
enum GenericPlan {
    /// `(SELECT placeholder::type)`: the array parameter, of an array type such as `text[]`, its
    /// length unknown to the planner.
    static func array(_ placeholder: String, _ type: String) -> String {
        "(SELECT \(placeholder)::\(type))"
    }

    /// `= ANY(…)` of the array parameter, its length unknown to the planner (the cast keeps
    /// PostgreSQL from reading the sub-select as `ANY (subquery)`).
    static func isAny(_ placeholder: String, _ type: String) -> String {
        "= ANY(\(array(placeholder, type))::\(type))"
    }

    /// `rows LIMIT count`, where `count` is the number of rows `rows` has: no rows fewer, but
    /// the planner, which guesses ten rows from arrays of unknown length, then estimates one
    /// and joins each to a table by its key. Without it, measured on the sample store's 1,302
    /// menu items, the generic plan of PlaceOrder's stock update read the whole table per order.
    static func rows(_ rows: String, count placeholder: String) -> String {
        "\(rows) LIMIT \(placeholder)"
    }
}

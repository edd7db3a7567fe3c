/// Lets other tests run during a long CPU-bound loop: `await`s `Task.yield()` on every 200th
/// round. Swift Testing runs tests in parallel on the cooperative pool, which has one thread
/// per core; a test that computes for tens of seconds without suspending holds a thread that
/// long, and on two cores two such tests stall every other test (their sleeps, their deadlines,
/// the start of their servers) until they finish.
public func yieldToOtherTests(every round: Int) async {
    if round % 200 == 199 { await Task.yield() }
}

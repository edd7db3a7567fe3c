import Foundation

/// Starts `process` with no signal blocked. A child inherits the signal mask of the thread that
/// spawns it, and the cooperative pool's and Dispatch's threads block nearly every signal:
/// started from one of them, pgbench never saw its `-T` alarm (SIGALRM) and ran until killed,
/// and svcd would not see SIGTERM. So the mask is cleared on the spawning thread for the spawn.
func runUnblocked(_ process: Process) throws {
    var empty = sigset_t()
    var saved = sigset_t()
    sigemptyset(&empty)
    pthread_sigmask(SIG_SETMASK, &empty, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    try process.run()
}

import WireContract

/// `svcctl stress` without its command line and report: drives one svcd, or the instances of one
/// cluster, from many concurrent paced clients, then checks the contract's invariants through
/// the public use cases.
///
/// In order: a probe that the instances share one store and bind idempotency keys
/// (``SharedStoreProbe``), the run's own users, restaurants and menu items (``StressFixture``),
/// the load (``StressLoad``), the writes of unknown outcome sent again with their keys
/// (``UnknownOutcomeResolver``, unless the plan says not to), and the checks
/// (``InvariantChecker``).
public enum StressRun {
    /// Runs `plan`, announcing each stage to `events` and handing `progress` a snapshot about
    /// once a second during the load; both are called on the calling thread, which the run
    /// blocks (blocking libzmq calls: not a task's thread).
    public static func execute(
        _ plan: StressPlan, events: (StressEvent) -> Void, progress: (StressProgressSnapshot) -> Void
    ) throws(LoadFailure) -> StressOutcome {
        let cluster = plan.cluster
        var addresses: [[UseCaseName: String]?] = []
        for instance in cluster.instances {
            guard instance.endpoints != nil else {
                addresses.append(nil)
                continue
            }
            var byUseCase: [UseCaseName: String] = [:]
            for useCase in StressWorkload.useCases(for: plan.mix) + [.getOrder, .createRestaurant, .addMenuItem, .registerUser] {
                byUseCase[useCase] = try instance.address(of: useCase)
            }
            addresses.append(byUseCase)
        }

        // Set-up, resolution and checks are reads and writes that must all be answered; they
        // wait at least 30 s per answer, so a service still digesting the load is not mistaken
        // for a dead one.
        let waitMilliseconds = max(plan.timeoutMilliseconds, 30_000)
        let caller = try BatchCaller(cluster: cluster, timeoutMilliseconds: waitMilliseconds, keyPrefix: plan.keyPrefix + "-s")
        events(.settingUp(
            restaurants: StressFixture.ownRestaurantCount, menuItems: StressFixture.ownRestaurantCount * StressFixture.itemsPerRestaurant))
        let probe = try SharedStoreProbe.run(
            caller: caller, cluster: cluster, tag: plan.tag, timeoutMilliseconds: waitMilliseconds, keyPrefix: plan.keyPrefix + "-p")
        caller.keysHonoured = probe.keysHonoured
        let fixture = try StressFixture.prepare(caller: caller, tag: plan.tag, userCount: plan.users, taxPartsPerMillion: plan.taxPartsPerMillion)
        events(.loadStarting)

        var load = try StressLoad(plan: plan, fixture: fixture, addresses: addresses).run(progress: progress)
        events(.loadFinished)
        let resolution: StressResolution
        let unknown = load.unknownWrites.count
        if !plan.resolve || unknown == 0 {
            for write in load.unknownWrites { write.request.recordUnknown(in: &load.ledger) }
            resolution = StressResolution(enabled: plan.resolve, keysHonoured: probe.keysHonoured, unknownAfterLoad: unknown, stillUnknown: unknown)
        } else {
            events(.resendingUnknownOutcomes(count: unknown))
            resolution = try UnknownOutcomeResolver(caller: caller, keysHonoured: probe.keysHonoured).resolve(load.unknownWrites, into: &load.ledger)
        }
        events(.checkingInvariants)
        let invariants = try InvariantChecker(caller: caller, fixture: fixture, ledger: load.ledger).run()
        return StressOutcome(load: load, invariants: invariants, resolution: resolution, keyFindings: probe.findings, downMarks: cluster.downMarks())
    }
}

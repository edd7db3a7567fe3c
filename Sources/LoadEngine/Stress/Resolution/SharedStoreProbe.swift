import WireContract
import WireJSON

/// The check before a stress run that the instances form one cluster and bind idempotency keys.
///
/// It registers a probe user through the first live instance with an idempotency key, then,
/// through every live instance (that one included), sends the very same request with the same
/// key again and, through the others, reads the user back. An instance that does not know the
/// user does not share the store, and the run stops (exit 64): over separate stores every check
/// would be meaningless. A repeat answered with the same user means svcd binds keys; `conflict`
/// (the address is taken) means it executed the repeat as a new write, so it does not.
struct SharedStoreProbe {
    /// Whether every instance asked bound the key (so a keyed write may be sent again and its
    /// answer is the original's).
    let keysHonoured: Bool
    /// What each instance answered, for the report (`nil`: not asked, e.g. down).
    let findings: [String?]

    /// Runs the probe; instances that do not answer are marked down and skipped.
    static func run(caller: BatchCaller, cluster: LoadCluster, tag: String, timeoutMilliseconds: Int, keyPrefix: String) throws(LoadFailure) -> SharedStoreProbe {
        let email = "stress-\(tag)-probe@example.test"
        let params: JSONObject = [WireMember.name.name: .string("Stress \(tag) probe"), WireMember.email.name: .string(email)]
        let key = caller.freshKeys(1)[0]
        // A read first: it may move on from a silent instance, which the probe's write may not.
        _ = try caller.callAll(.listRestaurants, [[WireMember.limit.name: 1]])
        let first = try caller.callAll(.registerUser, [params], keys: [key])[0]
        guard first.replySucceeded, let userId = first.replyResult?[WireMember.user.name]?[WireMember.id.name]?.stringValue else {
            throw LoadFailure(.serviceError, "RegisterUser of the probe user \(email) failed: \(Wording.error(first))")
        }
        let origin = caller.current
        var findings = [String?](repeating: nil, count: cluster.instances.count)
        var honouredEverywhere = true
        var strangers: [String] = []
        for index in cluster.instances.indices where index == origin || !cluster.isDown(index) {
            let name = cluster.instances[index].name
            let instanceCaller = index == origin
                ? caller : try BatchCaller(cluster: cluster, instance: index, timeoutMilliseconds: timeoutMilliseconds, keyPrefix: keyPrefix)
            if index != origin {
                guard let profile = try instanceCaller.callEach(.getUserProfile, [[WireMember.userId.name: .string(userId)]])[0] else {
                    cluster.markDown(index, reason: "no answer to the shared-store probe")
                    continue
                }
                if !profile.replySucceeded {
                    let code = profile.replyErrorCode ?? ""
                    if BatchCaller.isTransient(code) {
                        cluster.markDown(index, reason: "answered \(code) to the shared-store probe")
                        continue
                    }
                    strangers.append("\(name) does not know user \(userId), just registered through \(cluster.instances[origin].name) (GetUserProfile answered \(Wording.error(profile)))")
                    continue
                }
                let seen = (profile.replyResult?[WireMember.profile.name] ?? profile.replyResult)?[WireMember.email.name]?.stringValue?.lowercased()
                if seen != email {
                    strangers.append("\(name) has user \(userId) with email \(seen ?? "-"), not \(email)")
                    continue
                }
            }
            guard let again = try instanceCaller.callEach(.registerUser, [params], keys: [key])[0] else {
                if index != origin { cluster.markDown(index, reason: "no answer to the shared-store probe") }
                honouredEverywhere = false
                findings[index] = "no answer to the repeated keyed RegisterUser"
                continue
            }
            if again.replySucceeded, again.replyResult?[WireMember.user.name]?[WireMember.id.name]?.stringValue == userId {
                findings[index] = "binds idempotency keys"
            } else {
                honouredEverywhere = false
                findings[index] = "does not bind idempotency keys (the repeated RegisterUser answered "
                    + (again.replySucceeded ? "a new user" : Wording.error(again)) + ")"
            }
        }
        if !strangers.isEmpty {
            throw LoadFailure(
                .badTarget,
                "the instances do not share one store: " + strangers.joined(separator: "; ")
                    + ". Several instances are stressed as one cluster on one database; stress separate ones one at a time.")
        }
        return SharedStoreProbe(keysHonoured: honouredEverywhere, findings: findings)
    }
}

import Domain
import Synchronization
import Transport
import WireContract
import WireJSON

/// The per-request wire work of the GetRestaurant path on one thread: decode the request body,
/// read the params as the route does, encode the reply for a fixed restaurant, the way the
/// service does it. No sockets, threads, actors or use case.
///
/// Synchronous on purpose: valgrind 3.19 aborts on Swift's async main and hangs on the
/// cooperative pool here, so this is the part whose instructions can be counted:
///
///     valgrind --tool=callgrind svcbench --wire-iterations 1000
///     valgrind --tool=callgrind svcbench --wire-iterations 11000
///
/// and the difference of the two totals ÷ 10,000 is instructions per request.
enum WirePathBench {
    /// A restaurant of the same shape and size as the sample data's (a 394-byte reply).
    static let restaurant = Restaurant(
        id: RestaurantID("r-000042"), name: "Golden Lantern Thai", cuisine: "Thai", priceLevel: 2,
        address: "42 Maple Avenue, Springfield", latitude: 40.4217, longitude: -73.2958,
        imageUrl: "https://images.example.com/restaurants/42.jpg", phoneNumber: "+1-555-1041",
        website: "https://golden-lantern-thai.example.com", openingHours: ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"],
        ratingTotal: 17, reviewCount: 4, createdAt: Timestamp(millisecondsSinceEpoch: 1_780_000_000_000)
    )

    /// Runs `iterations` requests (ids 0…63 in turn, as the pipelined client sends them); returns
    /// the total reply bytes, so the work cannot be optimised away.
    static func run(iterations: Int, restaurantId: String) throws -> Int {
        let bodies = (0..<64).map { WireEnvelope.requestBytes(id: String($0), paramsJSON: #"{"\#(WireMember.restaurantId.name)":"\#(restaurantId)"}"#) }
        var writer = JSONWriter(capacity: 1024)
        var total = 0
        for iteration in 0..<iterations {
            let request = try WireRequest.decode(bodies[iteration & 63])
            let id: RestaurantID = try request.params.identifier(WireMember.restaurantId.name)
            let user: UserID? = try request.params.optionalIdentifier(WireMember.userId.name)
            guard id.rawValue == restaurantId, user == nil else { throw BenchError("the params did not decode") }
            let reply = WireReply.success(id: request.id, result: UseCaseResult.restaurant(restaurant, isFavorite: nil), using: &writer)
            total += reply.count
        }
        return total
    }
}

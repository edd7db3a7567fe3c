import Domain
import Foundation
import Persistence

/// Builds a large store through the SQLite repositories, many writes at a time so they share
/// group commits. Ids follow the sample data's pattern (`u-000001`, `r-000001`, `v-0000001`).
struct LargeStore {
    let restaurants: Int
    let reviews: Int
    let users: Int

    static let cuisines = ["Italian", "Japanese", "Mexican", "Indian", "French", "Thai", "Chinese", "Greek", "Lebanese", "Spanish", "Korean", "Vietnamese"]
    static let adjectives = ["Golden", "Little", "Blue", "Old", "Happy", "Green", "Royal", "Silver", "Sunny", "Hidden", "Red", "Lucky"]
    static let nouns = ["Spoon", "Table", "Garden", "Kitchen", "Lantern", "Oven", "Harbor", "Bistro", "Pantry", "Terrace"]

    func build(at path: String, progress: @escaping @Sendable (String) -> Void) async throws {
        let store = try SQLiteStore(path: path, events: nil)
        let userRepository = try await SQLiteUserRepository(store: store)
        let restaurantRepository = try await SQLiteRestaurantRepository(store: store)
        let base = Timestamp(year: 2024, month: 1, day: 1)

        try await concurrently(users) { index in
            let email = EmailAddress("user\(index + 1)@example.com")!
            _ = try await userRepository.insert(User(id: UserID(String(format: "u-%06d", index + 1)), name: "User \(index + 1)", email: email, joinedAt: base))
        }
        progress("\(users) users")
        try await concurrently(restaurants) { index in
            let cuisine = Self.cuisines[index % Self.cuisines.count]
            let name = "\(Self.adjectives[index % Self.adjectives.count]) \(Self.nouns[(index / Self.adjectives.count) % Self.nouns.count]) \(cuisine) \(index + 1)"
            try await restaurantRepository.insert(Restaurant(
                id: RestaurantID(String(format: "r-%06d", index + 1)), name: name, cuisine: cuisine, priceLevel: 1 + index % 4,
                address: "\(index + 1) Main St", latitude: Double(index % 180) - 89.5, longitude: Double(index % 360) - 179.5,
                imageUrl: "https://images.example.com/r/\(index + 1).jpg", phoneNumber: "+1-555-0100",
                openingHours: ["Mon-Fri 11:00-22:00", "Sat-Sun 10:00-23:00"], createdAt: base.adding(milliseconds: Int64(index) * 1000)
            ))
        }
        progress("\(restaurants) restaurants")
        let step = max(1, reviews / 10)
        try await concurrently(reviews) { index in
            // Skewed: restaurant k gets reviews in proportion to 1/(1 + k mod 100), so some have thousands.
            let restaurant = (index * 7919 % restaurants) / (1 + (index % 3))
            _ = try await restaurantRepository.addReview(Review(
                id: ReviewID(String(format: "v-%07d", index + 1)), restaurantId: RestaurantID(String(format: "r-%06d", restaurant + 1)),
                userId: UserID(String(format: "u-%06d", 1 + index % users)), rating: 1 + (index * 31 % 5),
                text: "Review number \(index + 1): fine food, friendly staff.", createdAt: base.adding(milliseconds: 86_400_000 + Int64(index) * 60_000)
            ))
            if (index + 1) % step == 0 { progress("\(index + 1) reviews") }
        }
        let statistics = store.commitStatistics
        progress("\(statistics.writes) writes in \(statistics.commits) commits")
        try await store.close()
    }

    /// Runs `body(0..<count)` with up to 512 calls in flight.
    private func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(count, 512) {
                let index = next
                group.addTask { try await body(index) }
                next += 1
            }
            while try await group.next() != nil {
                if next < count {
                    let index = next
                    group.addTask { try await body(index) }
                    next += 1
                }
            }
        }
    }
}

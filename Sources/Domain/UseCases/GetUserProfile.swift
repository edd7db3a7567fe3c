/// Shows an active user's profile: tier by time since joining and premium access.
public struct GetUserProfile: Sendable {
    /// The repository reads it makes.
    public static let reads: Set<RepositoryRead> = [.userById]

    private let users: any UserRepository
    private let clock: any WallClock

    /// Creates the use case.
    public init(users: any UserRepository, clock: any WallClock) {
        self.users = users
        self.clock = clock
    }

    /// The profile as of now; unknown user [not_found], inactive user [unauthorized].
    public func execute(userId: UserID) async throws -> UserProfile {
        let user = try await users.activeUser(userId)
        return UserProfile(user: user, now: clock.now())
    }
}

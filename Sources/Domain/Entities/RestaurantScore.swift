/// A restaurant's ranking score: rating × 0.5 + min(reviewCount / 100, 1) × 0.25
/// + min(recentReviewCount / 20, 1) × 0.25, so 0…3.
public struct RestaurantScore: Sendable, Hashable {
    /// The score, 0…3.
    public let value: Double

    /// Reviews at which the review-count part saturates.
    public static let reviewCountSaturation = 100
    /// Recent reviews at which the recency part saturates.
    public static let recentReviewSaturation = 20

    /// The score of a restaurant with this rating, review count and recent-review count.
    public init(rating: Double, reviewCount: Int, recentReviewCount: Int) {
        let volume = min(Double(reviewCount) / Double(RestaurantScore.reviewCountSaturation), 1)
        let recency = min(Double(recentReviewCount) / Double(RestaurantScore.recentReviewSaturation), 1)
        self.value = rating * 0.5 + volume * 0.25 + recency * 0.25
    }
}

/// Every member name of the use cases' params and results (and of the entities inside them),
/// spelled here and nowhere else: the server's decoding and reply writing, its schemas,
/// RestaurantClient, the load engine and the benchmark tools all use these.
///
/// Shapes, member by member (Docs/PROTOCOL.md, "Entity shapes"):
/// user {id, name, email, joinedAt, isActive, subscriptionActiveUntil};
/// profile {id, name, email, membershipTier, canAccessPremiumContent};
/// restaurant {id, name, cuisine, rating, reviewCount, priceLevel, address, latitude, longitude,
/// imageUrl, phoneNumber, website, openingHours[, isFavorite]};
/// review {id, restaurantId, userId, rating, text, createdAt};
/// item {id, restaurantId, name, priceCents, currency, stock};
/// order {id, userId, items [{itemId, quantity, unitPriceCents}], subtotalCents, discountCents,
/// taxCents, totalCents, currency, deliveryAddress, createdAt, status, cancelledAt};
/// feed item {id, title, imageUrl}.
public enum WireMember {
    // Entities' own members.
    /// `id`: every entity's id.
    public static let id = WireKey("id")
    /// `name`: a user's, a restaurant's or a menu item's name (also a param).
    public static let name = WireKey("name")
    /// `email` (user, profile; a param).
    public static let email = WireKey("email")
    /// `joinedAt` (user).
    public static let joinedAt = WireKey("joinedAt")
    /// `isActive` (user).
    public static let isActive = WireKey("isActive")
    /// `subscriptionActiveUntil` (user).
    public static let subscriptionActiveUntil = WireKey("subscriptionActiveUntil")
    /// `membershipTier` (profile).
    public static let membershipTier = WireKey("membershipTier")
    /// `canAccessPremiumContent` (profile).
    public static let canAccessPremiumContent = WireKey("canAccessPremiumContent")
    /// `cuisine` (restaurant; a param).
    public static let cuisine = WireKey("cuisine")
    /// `rating` (restaurant, review; a param).
    public static let rating = WireKey("rating")
    /// `reviewCount` (restaurant).
    public static let reviewCount = WireKey("reviewCount")
    /// `priceLevel` (restaurant; a param).
    public static let priceLevel = WireKey("priceLevel")
    /// `address` (restaurant; a param).
    public static let address = WireKey("address")
    /// `latitude` (restaurant; a param).
    public static let latitude = WireKey("latitude")
    /// `longitude` (restaurant; a param).
    public static let longitude = WireKey("longitude")
    /// `imageUrl` (restaurant, feed item; a param).
    public static let imageUrl = WireKey("imageUrl")
    /// `phoneNumber` (restaurant; a param).
    public static let phoneNumber = WireKey("phoneNumber")
    /// `website` (restaurant; a param).
    public static let website = WireKey("website")
    /// `openingHours` (restaurant; a param).
    public static let openingHours = WireKey("openingHours")
    /// `isFavorite` (restaurant, when GetRestaurant was given a user).
    public static let isFavorite = WireKey("isFavorite")
    /// `restaurantId` (review, item; a param).
    public static let restaurantId = WireKey("restaurantId")
    /// `userId` (review, order; a param).
    public static let userId = WireKey("userId")
    /// `text` (review; a param).
    public static let text = WireKey("text")
    /// `createdAt` (review, order).
    public static let createdAt = WireKey("createdAt")
    /// `priceCents` (item; a param).
    public static let priceCents = WireKey("priceCents")
    /// `currency` (item, order; a param).
    public static let currency = WireKey("currency")
    /// `stock` (item; a param; an order event's stock left).
    public static let stock = WireKey("stock")
    /// `itemId` (an order's line; a param and a param's line).
    public static let itemId = WireKey("itemId")
    /// `quantity` (an order's line; a param).
    public static let quantity = WireKey("quantity")
    /// `unitPriceCents` (an order's line).
    public static let unitPriceCents = WireKey("unitPriceCents")
    /// `subtotalCents` (order).
    public static let subtotalCents = WireKey("subtotalCents")
    /// `discountCents` (order; a param).
    public static let discountCents = WireKey("discountCents")
    /// `taxCents` (order).
    public static let taxCents = WireKey("taxCents")
    /// `totalCents` (order).
    public static let totalCents = WireKey("totalCents")
    /// `deliveryAddress` (order; a param).
    public static let deliveryAddress = WireKey("deliveryAddress")
    /// `status` (order).
    public static let status = WireKey("status")
    /// `cancelledAt` (order).
    public static let cancelledAt = WireKey("cancelledAt")
    /// `title` (feed item).
    public static let title = WireKey("title")

    // Results' members.
    /// `user`: RegisterUser, UpdateUserProfile, DeactivateUser, StartSubscription.
    public static let user = WireKey("user")
    /// `profile`: GetUserProfile.
    public static let profile = WireKey("profile")
    /// `restaurant`: CreateRestaurant, GetRestaurant.
    public static let restaurant = WireKey("restaurant")
    /// `restaurants`: ListRestaurants, SearchRestaurants, GetFavoriteRestaurants.
    public static let restaurants = WireKey("restaurants")
    /// `nextCursor`: every paged listing.
    public static let nextCursor = WireKey("nextCursor")
    /// `favoriteCount`: SaveFavoriteRestaurant, RemoveFavoriteRestaurant.
    public static let favoriteCount = WireKey("favoriteCount")
    /// `review`: AddReview.
    public static let review = WireKey("review")
    /// `restaurantRating`: AddReview.
    public static let restaurantRating = WireKey("restaurantRating")
    /// `reviews`: GetReviews.
    public static let reviews = WireKey("reviews")
    /// `score`: CalculateRestaurantScore.
    public static let score = WireKey("score")
    /// `item`: AddMenuItem, RestockMenuItem.
    public static let item = WireKey("item")
    /// `items`: GetMenu, LoadFeed (results); PlaceOrder (a param); an order's lines.
    public static let items = WireKey("items")
    /// `order`: PlaceOrder, GetOrder, CancelOrder.
    public static let order = WireKey("order")
    /// `orders`: ListOrders.
    public static let orders = WireKey("orders")

    // Params that are no result's member.
    /// `months`: StartSubscription.
    public static let months = WireKey("months")
    /// `minRating`: ListRestaurants.
    public static let minRating = WireKey("minRating")
    /// `maxPriceLevel`: ListRestaurants.
    public static let maxPriceLevel = WireKey("maxPriceLevel")
    /// `limit`: every paged listing, SearchRestaurants.
    public static let limit = WireKey("limit")
    /// `cursor`: every paged listing.
    public static let cursor = WireKey("cursor")
    /// `query`: SearchRestaurants.
    public static let query = WireKey("query")
    /// `orderId`: GetOrder, CancelOrder.
    public static let orderId = WireKey("orderId")
}

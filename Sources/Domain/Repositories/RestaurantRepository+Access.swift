extension RestaurantRepository {
    /// The restaurant with this id, which must exist [not_found].
    func existingRestaurant(_ id: RestaurantID) async throws -> Restaurant {
        guard let restaurant = try await restaurant(id: id) else {
            throw DomainError.notFound(entity: "restaurant", id: id.rawValue)
        }
        return restaurant
    }
}

import Domain
import WireContract

extension UseCaseRoute {
    /// The route of every use case of `catalog`, in endpoint order. This is the wire mapping of
    /// each use case's params (names and JSON types per the contract) onto its input. A write
    /// with an idempotency key that is bound already is answered from the binding before its use
    /// case runs (``ReplayBoundWrite``).
    public static func all(_ catalog: UseCaseCatalog) -> [UseCaseRoute] {
        UseCaseName.allCases.map { name in
            let route = route(for: name, catalog)
            // The contract says which use cases write; the route must agree, or a write would be
            // served without its claim (or a read take a write's path).
            precondition((route.path == .write) == name.writes, "\(name.rawValue): serving path disagrees with the contract")
            guard route.path == .write else { return route }
            let replay = catalog.replayBoundWrite
            return UseCaseRoute(name: name, path: route.path) { params, claim in
                if let claim { try await replay.execute(claim) }
                return try await route.handle(params, claim)
            }
        }
    }

    /// Each handler captures just its use case, not the whole catalog: calling it through the
    /// captured catalog copied the use case (its repository existentials) on every request. Each
    /// reads its params with its ``UseCaseInputs`` function, then runs its use case.
    static func route(for name: UseCaseName, _ c: UseCaseCatalog) -> UseCaseRoute {
        typealias Read = UseCaseInputs
        switch name {
        case .registerUser:
            let useCase = c.registerUser
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(try Read.registerUser(p), claim: claim))
            }
        case .getUserProfile:
            let useCase = c.getUserProfile
            return UseCaseRoute(name: name, path: ServingPath.read(GetUserProfile.reads, in: c)) { p, _ in
                .profile(try await useCase.execute(userId: try Read.getUserProfile(p)))
            }
        case .updateUserProfile:
            let useCase = c.updateUserProfile
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(try Read.updateUserProfile(p), claim: claim))
            }
        case .deactivateUser:
            let useCase = c.deactivateUser
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(userId: try Read.deactivateUser(p), claim: claim))
            }
        case .startSubscription:
            let useCase = c.startSubscription
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = try Read.startSubscription(p)
                return .user(try await useCase.execute(userId: input.userId, months: input.months, claim: claim))
            }
        case .createRestaurant:
            let useCase = c.createRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .restaurant(try await useCase.execute(try Read.createRestaurant(p), claim: claim), isFavorite: nil)
            }
        case .getRestaurant:
            let useCase = c.getRestaurant
            return UseCaseRoute(name: name, path: ServingPath.read(GetRestaurant.reads, in: c)) { p, _ in
                let input = try Read.getRestaurant(p)
                let output = try await useCase.execute(restaurantId: input.restaurantId, userId: input.userId)
                return .restaurant(output.restaurant, isFavorite: output.isFavorite)
            }
        case .listRestaurants:
            let useCase = c.listRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(ListRestaurants.reads, in: c)) { p, _ in
                .restaurantPage(try await useCase.execute(try Read.listRestaurants(p)))
            }
        case .searchRestaurants:
            let useCase = c.searchRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(SearchRestaurants.reads, in: c)) { p, _ in
                let input = try Read.searchRestaurants(p)
                return .restaurants(try await useCase.execute(query: input.query, limit: input.limit))
            }
        case .saveFavoriteRestaurant:
            let useCase = c.saveFavoriteRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = try Read.saveFavoriteRestaurant(p)
                return .favoriteCount(try await useCase.execute(userId: input.userId, restaurantId: input.restaurantId, claim: claim))
            }
        case .removeFavoriteRestaurant:
            let useCase = c.removeFavoriteRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = try Read.removeFavoriteRestaurant(p)
                return .favoriteCount(try await useCase.execute(userId: input.userId, restaurantId: input.restaurantId, claim: claim))
            }
        case .getFavoriteRestaurants:
            let useCase = c.getFavoriteRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(GetFavoriteRestaurants.reads, in: c)) { p, _ in
                .restaurants(try await useCase.execute(userId: try Read.getFavoriteRestaurants(p)))
            }
        case .addReview:
            let useCase = c.addReview
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let output = try await useCase.execute(try Read.addReview(p), claim: claim)
                return .review(output.review, restaurantRating: output.restaurantRating)
            }
        case .getReviews:
            let useCase = c.getReviews
            return UseCaseRoute(name: name, path: ServingPath.read(GetReviews.reads, in: c)) { p, _ in
                let input = try Read.getReviews(p)
                return .reviewPage(try await useCase.execute(restaurantId: input.restaurantId, limit: input.limit, cursor: input.cursor))
            }
        case .calculateRestaurantScore:
            let useCase = c.calculateRestaurantScore
            return UseCaseRoute(name: name, path: ServingPath.read(CalculateRestaurantScore.reads, in: c)) { p, _ in
                .score(try await useCase.execute(restaurantId: try Read.calculateRestaurantScore(p)).value)
            }
        case .addMenuItem:
            let useCase = c.addMenuItem
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .item(try await useCase.execute(try Read.addMenuItem(p), claim: claim))
            }
        case .restockMenuItem:
            let useCase = c.restockMenuItem
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = try Read.restockMenuItem(p)
                return .item(try await useCase.execute(itemId: input.itemId, quantity: input.quantity, claim: claim))
            }
        case .getMenu:
            let useCase = c.getMenu
            return UseCaseRoute(name: name, path: ServingPath.read(GetMenu.reads, in: c)) { p, _ in
                .items(try await useCase.execute(restaurantId: try Read.getMenu(p)))
            }
        case .placeOrder:
            let useCase = c.placeOrder
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .order(try await useCase.execute(try Read.placeOrder(p), claim: claim))
            }
        case .getOrder:
            let useCase = c.getOrder
            return UseCaseRoute(name: name, path: ServingPath.read(GetOrder.reads, in: c)) { p, _ in
                .order(try await useCase.execute(orderId: try Read.getOrder(p)))
            }
        case .listOrders:
            let useCase = c.listOrders
            return UseCaseRoute(name: name, path: ServingPath.read(ListOrders.reads, in: c)) { p, _ in
                let input = try Read.listOrders(p)
                return .orderPage(try await useCase.execute(userId: input.userId, limit: input.limit, cursor: input.cursor))
            }
        case .loadFeed:
            let useCase = c.loadFeed
            return UseCaseRoute(name: name, path: ServingPath.read(LoadFeed.reads, in: c)) { p, _ in
                let input = try Read.loadFeed(p)
                return .feedPage(try await useCase.execute(limit: input.limit, cursor: input.cursor))
            }
        case .cancelOrder:
            let useCase = c.cancelOrder
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = try Read.cancelOrder(p)
                return .order(try await useCase.execute(orderId: input.orderId, userId: input.userId, claim: claim))
            }
        }
    }
}

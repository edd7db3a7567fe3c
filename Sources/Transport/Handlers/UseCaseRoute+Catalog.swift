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
            guard name.writes else { return route }
            let replay = catalog.replayBoundWrite
            return UseCaseRoute(name: name) { params, claim in
                if let claim { try await replay.execute(claim) }
                return try await route.handle(params, claim)
            }
        }
    }

    /// Each handler captures just its use case, not the whole catalog: calling it through the
    /// captured catalog copied the use case (its repository existentials) on every request.
    static func route(for name: UseCaseName, _ c: UseCaseCatalog) -> UseCaseRoute {
        switch name {
        case .registerUser:
            let useCase = c.registerUser
            return UseCaseRoute(name: name) { p, claim in
                .user(try await useCase.execute(.init(name: try p.string("name"), email: try p.string("email")), claim: claim))
            }
        case .getUserProfile:
            let useCase = c.getUserProfile
            return UseCaseRoute(name: name) { p, _ in
                .profile(try await useCase.execute(userId: try p.identifier("userId")))
            }
        case .updateUserProfile:
            let useCase = c.updateUserProfile
            return UseCaseRoute(name: name) { p, claim in
                .user(try await useCase.execute(.init(userId: try p.identifier("userId"), name: try p.optionalString("name"), email: try p.optionalString("email")), claim: claim))
            }
        case .deactivateUser:
            let useCase = c.deactivateUser
            return UseCaseRoute(name: name) { p, claim in
                .user(try await useCase.execute(userId: try p.identifier("userId"), claim: claim))
            }
        case .startSubscription:
            let useCase = c.startSubscription
            return UseCaseRoute(name: name) { p, claim in
                .user(try await useCase.execute(userId: try p.identifier("userId"), months: try p.int("months"), claim: claim))
            }
        case .createRestaurant:
            let useCase = c.createRestaurant
            return UseCaseRoute(name: name) { p, claim in
                let input = CreateRestaurant.Input(
                    name: try p.string("name"), cuisine: try p.string("cuisine"), priceLevel: try p.int("priceLevel"),
                    address: try p.string("address"), latitude: try p.double("latitude"), longitude: try p.double("longitude"),
                    imageUrl: try p.optionalString("imageUrl"), phoneNumber: try p.optionalString("phoneNumber"),
                    website: try p.optionalString("website"), openingHours: try p.optionalStringArray("openingHours")
                )
                return .restaurant(try await useCase.execute(input, claim: claim), isFavorite: nil)
            }
        case .getRestaurant:
            let useCase = c.getRestaurant
            return UseCaseRoute(name: name) { p, _ in
                let output = try await useCase.execute(restaurantId: try p.identifier("restaurantId"), userId: try p.optionalIdentifier("userId"))
                return .restaurant(output.restaurant, isFavorite: output.isFavorite)
            }
        case .listRestaurants:
            let useCase = c.listRestaurants
            return UseCaseRoute(name: name) { p, _ in
                let input = ListRestaurants.Input(
                    cuisine: try p.optionalString("cuisine"), minRating: try p.optionalDouble("minRating"),
                    maxPriceLevel: try p.optionalInt("maxPriceLevel"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()
                )
                return .restaurantPage(try await useCase.execute(input))
            }
        case .searchRestaurants:
            let useCase = c.searchRestaurants
            return UseCaseRoute(name: name) { p, _ in
                .restaurants(try await useCase.execute(query: try p.string("query"), limit: try p.optionalInt("limit")))
            }
        case .saveFavoriteRestaurant:
            let useCase = c.saveFavoriteRestaurant
            return UseCaseRoute(name: name) { p, claim in
                .favoriteCount(try await useCase.execute(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId"), claim: claim))
            }
        case .removeFavoriteRestaurant:
            let useCase = c.removeFavoriteRestaurant
            return UseCaseRoute(name: name) { p, claim in
                .favoriteCount(try await useCase.execute(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId"), claim: claim))
            }
        case .getFavoriteRestaurants:
            let useCase = c.getFavoriteRestaurants
            return UseCaseRoute(name: name) { p, _ in
                .restaurants(try await useCase.execute(userId: try p.identifier("userId")))
            }
        case .addReview:
            let useCase = c.addReview
            return UseCaseRoute(name: name) { p, claim in
                let input = AddReview.Input(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId"), rating: try p.int("rating"), text: try p.string("text"))
                let output = try await useCase.execute(input, claim: claim)
                return .review(output.review, restaurantRating: output.restaurantRating)
            }
        case .getReviews:
            let useCase = c.getReviews
            return UseCaseRoute(name: name) { p, _ in
                .reviewPage(try await useCase.execute(restaurantId: try p.identifier("restaurantId"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        case .calculateRestaurantScore:
            let useCase = c.calculateRestaurantScore
            return UseCaseRoute(name: name) { p, _ in
                .score(try await useCase.execute(restaurantId: try p.identifier("restaurantId")).value)
            }
        case .addMenuItem:
            let useCase = c.addMenuItem
            return UseCaseRoute(name: name) { p, claim in
                let input = AddMenuItem.Input(
                    restaurantId: try p.identifier("restaurantId"), name: try p.string("name"), priceCents: try p.int("priceCents"),
                    currency: try p.string("currency"), stock: try p.int("stock")
                )
                return .item(try await useCase.execute(input, claim: claim))
            }
        case .restockMenuItem:
            let useCase = c.restockMenuItem
            return UseCaseRoute(name: name) { p, claim in
                .item(try await useCase.execute(itemId: try p.identifier("itemId"), quantity: try p.int("quantity"), claim: claim))
            }
        case .getMenu:
            let useCase = c.getMenu
            return UseCaseRoute(name: name) { p, _ in
                .items(try await useCase.execute(restaurantId: try p.identifier("restaurantId")))
            }
        case .placeOrder:
            let useCase = c.placeOrder
            return UseCaseRoute(name: name) { p, claim in
                let lines = try p.objectArray("items") { line throws(WireError) in
                    PlaceOrder.LineInput(itemId: try line.identifier("itemId"), quantity: try line.int("quantity"))
                }
                let input = PlaceOrder.Input(userId: try p.identifier("userId"), items: lines, discountCents: try p.optionalInt("discountCents"), deliveryAddress: try p.string("deliveryAddress"))
                return .order(try await useCase.execute(input, claim: claim))
            }
        case .getOrder:
            let useCase = c.getOrder
            return UseCaseRoute(name: name) { p, _ in
                .order(try await useCase.execute(orderId: try p.identifier("orderId")))
            }
        case .listOrders:
            let useCase = c.listOrders
            return UseCaseRoute(name: name) { p, _ in
                .orderPage(try await useCase.execute(userId: try p.identifier("userId"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        case .loadFeed:
            let useCase = c.loadFeed
            return UseCaseRoute(name: name) { p, _ in
                .feedPage(try await useCase.execute(limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        case .cancelOrder:
            let useCase = c.cancelOrder
            return UseCaseRoute(name: name) { p, claim in
                .order(try await useCase.execute(orderId: try p.identifier("orderId"), userId: try p.identifier("userId"), claim: claim))
            }
        }
    }
}

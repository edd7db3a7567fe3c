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
    /// captured catalog copied the use case (its repository existentials) on every request.
    static func route(for name: UseCaseName, _ c: UseCaseCatalog) -> UseCaseRoute {
        switch name {
        case .registerUser:
            let useCase = c.registerUser
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(.init(name: try p.string(WireMember.name.name), email: try p.string(WireMember.email.name)), claim: claim))
            }
        case .getUserProfile:
            let useCase = c.getUserProfile
            return UseCaseRoute(name: name, path: ServingPath.read(GetUserProfile.reads, in: c)) { p, _ in
                .profile(try await useCase.execute(userId: try p.identifier(WireMember.userId.name)))
            }
        case .updateUserProfile:
            let useCase = c.updateUserProfile
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(.init(userId: try p.identifier(WireMember.userId.name), name: try p.optionalString(WireMember.name.name), email: try p.optionalString(WireMember.email.name)), claim: claim))
            }
        case .deactivateUser:
            let useCase = c.deactivateUser
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(userId: try p.identifier(WireMember.userId.name), claim: claim))
            }
        case .startSubscription:
            let useCase = c.startSubscription
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .user(try await useCase.execute(userId: try p.identifier(WireMember.userId.name), months: try p.int(WireMember.months.name), claim: claim))
            }
        case .createRestaurant:
            let useCase = c.createRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = CreateRestaurant.Input(
                    name: try p.string(WireMember.name.name), cuisine: try p.string(WireMember.cuisine.name), priceLevel: try p.int(WireMember.priceLevel.name),
                    address: try p.string(WireMember.address.name), latitude: try p.double(WireMember.latitude.name), longitude: try p.double(WireMember.longitude.name),
                    imageUrl: try p.optionalString(WireMember.imageUrl.name), phoneNumber: try p.optionalString(WireMember.phoneNumber.name),
                    website: try p.optionalString(WireMember.website.name), openingHours: try p.optionalStringArray(WireMember.openingHours.name)
                )
                return .restaurant(try await useCase.execute(input, claim: claim), isFavorite: nil)
            }
        case .getRestaurant:
            let useCase = c.getRestaurant
            return UseCaseRoute(name: name, path: ServingPath.read(GetRestaurant.reads, in: c)) { p, _ in
                let output = try await useCase.execute(restaurantId: try p.identifier(WireMember.restaurantId.name), userId: try p.optionalIdentifier(WireMember.userId.name))
                return .restaurant(output.restaurant, isFavorite: output.isFavorite)
            }
        case .listRestaurants:
            let useCase = c.listRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(ListRestaurants.reads, in: c)) { p, _ in
                let input = ListRestaurants.Input(
                    cuisine: try p.optionalString(WireMember.cuisine.name), minRating: try p.optionalDouble(WireMember.minRating.name),
                    maxPriceLevel: try p.optionalInt(WireMember.maxPriceLevel.name), limit: try p.optionalInt(WireMember.limit.name), cursor: try p.optionalCursor()
                )
                return .restaurantPage(try await useCase.execute(input))
            }
        case .searchRestaurants:
            let useCase = c.searchRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(SearchRestaurants.reads, in: c)) { p, _ in
                .restaurants(try await useCase.execute(query: try p.string(WireMember.query.name), limit: try p.optionalInt(WireMember.limit.name)))
            }
        case .saveFavoriteRestaurant:
            let useCase = c.saveFavoriteRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .favoriteCount(try await useCase.execute(userId: try p.identifier(WireMember.userId.name), restaurantId: try p.identifier(WireMember.restaurantId.name), claim: claim))
            }
        case .removeFavoriteRestaurant:
            let useCase = c.removeFavoriteRestaurant
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .favoriteCount(try await useCase.execute(userId: try p.identifier(WireMember.userId.name), restaurantId: try p.identifier(WireMember.restaurantId.name), claim: claim))
            }
        case .getFavoriteRestaurants:
            let useCase = c.getFavoriteRestaurants
            return UseCaseRoute(name: name, path: ServingPath.read(GetFavoriteRestaurants.reads, in: c)) { p, _ in
                .restaurants(try await useCase.execute(userId: try p.identifier(WireMember.userId.name)))
            }
        case .addReview:
            let useCase = c.addReview
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = AddReview.Input(userId: try p.identifier(WireMember.userId.name), restaurantId: try p.identifier(WireMember.restaurantId.name), rating: try p.int(WireMember.rating.name), text: try p.string(WireMember.text.name))
                let output = try await useCase.execute(input, claim: claim)
                return .review(output.review, restaurantRating: output.restaurantRating)
            }
        case .getReviews:
            let useCase = c.getReviews
            return UseCaseRoute(name: name, path: ServingPath.read(GetReviews.reads, in: c)) { p, _ in
                .reviewPage(try await useCase.execute(restaurantId: try p.identifier(WireMember.restaurantId.name), limit: try p.optionalInt(WireMember.limit.name), cursor: try p.optionalCursor()))
            }
        case .calculateRestaurantScore:
            let useCase = c.calculateRestaurantScore
            return UseCaseRoute(name: name, path: ServingPath.read(CalculateRestaurantScore.reads, in: c)) { p, _ in
                .score(try await useCase.execute(restaurantId: try p.identifier(WireMember.restaurantId.name)).value)
            }
        case .addMenuItem:
            let useCase = c.addMenuItem
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let input = AddMenuItem.Input(
                    restaurantId: try p.identifier(WireMember.restaurantId.name), name: try p.string(WireMember.name.name), priceCents: try p.int(WireMember.priceCents.name),
                    currency: try p.string(WireMember.currency.name), stock: try p.int(WireMember.stock.name)
                )
                return .item(try await useCase.execute(input, claim: claim))
            }
        case .restockMenuItem:
            let useCase = c.restockMenuItem
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .item(try await useCase.execute(itemId: try p.identifier(WireMember.itemId.name), quantity: try p.int(WireMember.quantity.name), claim: claim))
            }
        case .getMenu:
            let useCase = c.getMenu
            return UseCaseRoute(name: name, path: ServingPath.read(GetMenu.reads, in: c)) { p, _ in
                .items(try await useCase.execute(restaurantId: try p.identifier(WireMember.restaurantId.name)))
            }
        case .placeOrder:
            let useCase = c.placeOrder
            return UseCaseRoute(name: name, path: .write) { p, claim in
                let lines = try p.objectArray(WireMember.items.name) { line throws(WireError) in
                    PlaceOrder.LineInput(itemId: try line.identifier(WireMember.itemId.name), quantity: try line.int(WireMember.quantity.name))
                }
                let input = PlaceOrder.Input(userId: try p.identifier(WireMember.userId.name), items: lines, discountCents: try p.optionalInt(WireMember.discountCents.name), deliveryAddress: try p.string(WireMember.deliveryAddress.name))
                return .order(try await useCase.execute(input, claim: claim))
            }
        case .getOrder:
            let useCase = c.getOrder
            return UseCaseRoute(name: name, path: ServingPath.read(GetOrder.reads, in: c)) { p, _ in
                .order(try await useCase.execute(orderId: try p.identifier(WireMember.orderId.name)))
            }
        case .listOrders:
            let useCase = c.listOrders
            return UseCaseRoute(name: name, path: ServingPath.read(ListOrders.reads, in: c)) { p, _ in
                .orderPage(try await useCase.execute(userId: try p.identifier(WireMember.userId.name), limit: try p.optionalInt(WireMember.limit.name), cursor: try p.optionalCursor()))
            }
        case .loadFeed:
            let useCase = c.loadFeed
            return UseCaseRoute(name: name, path: ServingPath.read(LoadFeed.reads, in: c)) { p, _ in
                .feedPage(try await useCase.execute(limit: try p.optionalInt(WireMember.limit.name), cursor: try p.optionalCursor()))
            }
        case .cancelOrder:
            let useCase = c.cancelOrder
            return UseCaseRoute(name: name, path: .write) { p, claim in
                .order(try await useCase.execute(orderId: try p.identifier(WireMember.orderId.name), userId: try p.identifier(WireMember.userId.name), claim: claim))
            }
        }
    }
}

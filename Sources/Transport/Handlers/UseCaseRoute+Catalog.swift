import Domain

extension UseCaseRoute {
    /// The route of every use case of `catalog`, in endpoint order. This is the wire mapping of
    /// each use case's params (names and JSON types per the contract) onto its input.
    public static func all(_ catalog: UseCaseCatalog) -> [UseCaseRoute] {
        UseCaseName.allCases.map { route(for: $0, catalog) }
    }

    static func route(for name: UseCaseName, _ c: UseCaseCatalog) -> UseCaseRoute {
        switch name {
        case .registerUser:
            UseCaseRoute(name: name) { p in
                .user(try await c.registerUser.execute(.init(name: try p.string("name"), email: try p.string("email"))))
            }
        case .getUserProfile:
            UseCaseRoute(name: name) { p in
                .profile(try await c.getUserProfile.execute(userId: try p.identifier("userId")))
            }
        case .updateUserProfile:
            UseCaseRoute(name: name) { p in
                .user(try await c.updateUserProfile.execute(.init(userId: try p.identifier("userId"), name: try p.optionalString("name"), email: try p.optionalString("email"))))
            }
        case .deactivateUser:
            UseCaseRoute(name: name) { p in
                .user(try await c.deactivateUser.execute(userId: try p.identifier("userId")))
            }
        case .startSubscription:
            UseCaseRoute(name: name) { p in
                .user(try await c.startSubscription.execute(userId: try p.identifier("userId"), months: try p.int("months")))
            }
        case .createRestaurant:
            UseCaseRoute(name: name) { p in
                let input = CreateRestaurant.Input(
                    name: try p.string("name"), cuisine: try p.string("cuisine"), priceLevel: try p.int("priceLevel"),
                    address: try p.string("address"), latitude: try p.double("latitude"), longitude: try p.double("longitude"),
                    imageUrl: try p.optionalString("imageUrl"), phoneNumber: try p.optionalString("phoneNumber"),
                    website: try p.optionalString("website"), openingHours: try p.optionalStringArray("openingHours")
                )
                return .restaurant(try await c.createRestaurant.execute(input), isFavorite: nil)
            }
        case .getRestaurant:
            UseCaseRoute(name: name) { p in
                let output = try await c.getRestaurant.execute(restaurantId: try p.identifier("restaurantId"), userId: try p.optionalIdentifier("userId"))
                return .restaurant(output.restaurant, isFavorite: output.isFavorite)
            }
        case .listRestaurants:
            UseCaseRoute(name: name) { p in
                let input = ListRestaurants.Input(
                    cuisine: try p.optionalString("cuisine"), minRating: try p.optionalDouble("minRating"),
                    maxPriceLevel: try p.optionalInt("maxPriceLevel"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()
                )
                return .restaurantPage(try await c.listRestaurants.execute(input))
            }
        case .searchRestaurants:
            UseCaseRoute(name: name) { p in
                .restaurants(try await c.searchRestaurants.execute(query: try p.string("query"), limit: try p.optionalInt("limit")))
            }
        case .saveFavoriteRestaurant:
            UseCaseRoute(name: name) { p in
                .favoriteCount(try await c.saveFavoriteRestaurant.execute(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId")))
            }
        case .removeFavoriteRestaurant:
            UseCaseRoute(name: name) { p in
                .favoriteCount(try await c.removeFavoriteRestaurant.execute(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId")))
            }
        case .getFavoriteRestaurants:
            UseCaseRoute(name: name) { p in
                .restaurants(try await c.getFavoriteRestaurants.execute(userId: try p.identifier("userId")))
            }
        case .addReview:
            UseCaseRoute(name: name) { p in
                let input = AddReview.Input(userId: try p.identifier("userId"), restaurantId: try p.identifier("restaurantId"), rating: try p.int("rating"), text: try p.string("text"))
                let output = try await c.addReview.execute(input)
                return .review(output.review, restaurantRating: output.restaurantRating)
            }
        case .getReviews:
            UseCaseRoute(name: name) { p in
                .reviewPage(try await c.getReviews.execute(restaurantId: try p.identifier("restaurantId"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        case .calculateRestaurantScore:
            UseCaseRoute(name: name) { p in
                .score(try await c.calculateRestaurantScore.execute(restaurantId: try p.identifier("restaurantId")).value)
            }
        case .addMenuItem:
            UseCaseRoute(name: name) { p in
                let input = AddMenuItem.Input(
                    restaurantId: try p.identifier("restaurantId"), name: try p.string("name"), priceCents: try p.int("priceCents"),
                    currency: try p.string("currency"), stock: try p.int("stock")
                )
                return .item(try await c.addMenuItem.execute(input))
            }
        case .restockMenuItem:
            UseCaseRoute(name: name) { p in
                .item(try await c.restockMenuItem.execute(itemId: try p.identifier("itemId"), quantity: try p.int("quantity")))
            }
        case .getMenu:
            UseCaseRoute(name: name) { p in
                .items(try await c.getMenu.execute(restaurantId: try p.identifier("restaurantId")))
            }
        case .placeOrder:
            UseCaseRoute(name: name) { p in
                let lines = try p.objectArray("items") { line throws(WireError) in
                    PlaceOrder.LineInput(itemId: try line.identifier("itemId"), quantity: try line.int("quantity"))
                }
                let input = PlaceOrder.Input(userId: try p.identifier("userId"), items: lines, discountCents: try p.optionalInt("discountCents"), deliveryAddress: try p.string("deliveryAddress"))
                return .order(try await c.placeOrder.execute(input))
            }
        case .getOrder:
            UseCaseRoute(name: name) { p in
                .order(try await c.getOrder.execute(orderId: try p.identifier("orderId")))
            }
        case .listOrders:
            UseCaseRoute(name: name) { p in
                .orderPage(try await c.listOrders.execute(userId: try p.identifier("userId"), limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        case .loadFeed:
            UseCaseRoute(name: name) { p in
                .feedPage(try await c.loadFeed.execute(limit: try p.optionalInt("limit"), cursor: try p.optionalCursor()))
            }
        }
    }
}

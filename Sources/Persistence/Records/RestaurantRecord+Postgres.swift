import GRDB
import PostgresNIO

extension RestaurantRecord: PostgresRecord {
    static let postgresColumns = postgresColumnList()

    static func postgresColumn(_ column: Columns) -> PostgresColumn<RestaurantRecord>? {
        switch column {
        case .id: .init(column) { $0.id }
        case .name: .init(column) { $0.name }
        case .cuisine: .init(column) { $0.cuisine }
        case .priceLevel: .init(column) { $0.priceLevel }
        case .address: .init(column) { $0.address }
        case .latitude: .init(column) { $0.latitude }
        case .longitude: .init(column) { $0.longitude }
        case .imageUrl: .init(column, nullable: { $0.imageUrl })
        case .phoneNumber: .init(column, nullable: { $0.phoneNumber })
        case .website: .init(column, nullable: { $0.website })
        // A text[] there, where SQLite has a JSON array.
        case .openingHours: .init(column, unbatched: { $0.openingHours })
        case .ratingTotal: .init(column) { $0.ratingTotal }
        case .reviewCount: .init(column) { $0.reviewCount }
        case .createdAt: .init(column) { $0.createdAt }
        case .rankRating: .init(column) { $0.rankRating }
        case .listed: .init(column) { $0.listed }
        case .nameKey: .init(column) { $0.nameKey }
        case .cuisineKey: .init(column) { $0.cuisineKey }
        }
    }

    init(postgres row: PostgresRecordRow<RestaurantRecord>) throws {
        id = try row[.id]
        name = try row[.name]
        cuisine = try row[.cuisine]
        priceLevel = try row[.priceLevel]
        address = try row[.address]
        latitude = try row[.latitude]
        longitude = try row[.longitude]
        imageUrl = try row[.imageUrl]
        phoneNumber = try row[.phoneNumber]
        website = try row[.website]
        openingHours = try row[.openingHours]
        ratingTotal = try row[.ratingTotal]
        reviewCount = try row[.reviewCount]
        createdAt = try row[.createdAt]
        rankRating = try row[.rankRating]
        listed = try row[.listed]
        nameKey = try row[.nameKey]
        cuisineKey = try row[.cuisineKey]
    }
}

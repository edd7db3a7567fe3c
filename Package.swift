// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "restaurant-service",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Domain", targets: ["Domain"]),
    ],
    targets: [
        // Pure business core: entities, use cases, ports. No dependencies, no imports.
        .target(name: "Domain"),
        // Repository implementations (in-memory today, SQLite later) behind Domain's protocols.
        .target(name: "Persistence", dependencies: ["Domain"]),

        .testTarget(name: "DomainTests", dependencies: ["Domain"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Domain", "Persistence"]),
    ]
)

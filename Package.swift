// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Sprout",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "sprout", targets: ["sprout"]),
        .library(name: "SproutServer", targets: ["SproutServer"]),
        .library(name: "SproutKit", targets: ["SproutKit"]),
        .library(name: "SproutImaging", targets: ["SproutImaging"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        // The Diary's weather: the server asks OpenWeather (DESIGN.md names async-http-client for outgoing HTTP).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Mail: STARTTLS and SMTPS for the small SMTP client in Sources/SproutServer/Mail (already in the graph
        // through async-http-client).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        // Operations: /metrics in Prometheus's text format, recorded through swift-metrics (which Hummingbird
        // already depends on). docs/operations.md lists the series.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // Product images (Open Market): validation and thumbnails with the system's libjpeg(-turbo) and libpng 1.6.
        // docs/images.md describes the rules.
        .systemLibrary(
            name: "CImageLibraries",
            path: "Sources/CImageLibraries",
            pkgConfig: "libpng",
            providers: [.apt(["libjpeg-dev", "libpng-dev"])]
        ),
        // The only C: libjpeg reports errors by longjmp, so every libjpeg call sits behind a setjmp here.
        .target(
            name: "CImageCodecs",
            dependencies: ["CImageLibraries"],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .target(
            name: "SproutImaging",
            dependencies: ["CImageCodecs", "CImageLibraries"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SproutWire",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SproutServer",
            dependencies: [
                "SproutWire",
                "SproutImaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its pool's error type, to answer a database that cannot be reached with 503 (UnavailableStorage).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The OpenAPI document's YAML sources: scripts/generate-openapi merges them into OpenAPI/Document.
            exclude: ["OpenAPI/Sources"],
            swiftSettings: swiftSettings,
            // Every other file that is not Swift is built into the code, so the binary stands alone: the web app (each
            // service's templates and scripts in a folder named for its slug, Web/Site/WebResources.swift) and
            // OpenAPI/Document.
            plugins: ["EmbedResources"]
        ),
        .executableTarget(
            name: "sprout",
            dependencies: [
                "SproutServer",
                "SproutWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: [
                // Release builds on Linux: lld (in the toolchain) packs the 160,000 relative relocations into 32 KB
                // (`-z pack-relative-relocs`; gold, the default, cannot), and the binary exports no symbols (the
                // static runtime's `-export-dynamic` put 59,000 in its dynamic table). Both are read at every start
                // and stayed resident: an idle server's RSS 49.7 → 39.9 MiB (docs/benchmarks.md, "Peak RSS").
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux], configuration: .release)
                ),
            ],
            // `sprout --version`: the commit, from git at build time.
            plugins: ["BuildCommit"]
        ),
        // Build tools, run by SwiftPM while building (Plugins/): a target's files as Swift string literals; the commit.
        .executableTarget(
            name: "EmbedResourcesTool",
            swiftSettings: swiftSettings
        ),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedResourcesTool"]
        ),
        .plugin(
            name: "BuildCommit",
            capability: .buildTool()
        ),
        .target(
            name: "SproutKit",
            dependencies: [
                "SproutWire",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SproutKitTests",
            dependencies: [
                "SproutKit",
                "SproutWire",
                "SproutServer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SproutServerTests",
            dependencies: [
                "SproutServer",
                "SproutWire",
                "SproutImaging",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // Plugins/EmbedResources on awkward files (Samples/): each must come back byte for byte.
        .testTarget(
            name: "EmbedResourcesTests",
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        .testTarget(
            name: "SproutImagingTests",
            dependencies: ["SproutImaging"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

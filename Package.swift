// swift-tools-version: 6.1
import PackageDescription

/// Compiler settings every Swift target shares: Swift 6 mode plus the checks
/// that keep C types and implicit existentials out of public API.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "latchkey", targets: ["latchkey"]),
        .library(name: "LatchkeyServer", targets: ["LatchkeyServer"]),
        .library(name: "LatchkeyCrypto", targets: ["LatchkeyCrypto"]),
        .library(name: "LatchkeyJOSE", targets: ["LatchkeyJOSE"]),
        .library(name: "LatchkeyClient", targets: ["LatchkeyClient"]),
    ],
    targets: [
        // C shims: one system-library target per C library.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZxcvbn", providers: [.apt(["libzxcvbn-dev"])]),
        // No pkgConfig: hiredis's .pc adds -D_FILE_OFFSET_BITS=64, which SwiftPM rejects
        // with a warning; the shim includes <hiredis/hiredis.h> from the default path.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        .target(
            name: "LatchkeyCrypto",
            dependencies: ["COpenSSL", "CArgon2"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyJOSE",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyServer",
            dependencies: ["LatchkeyCrypto", "LatchkeyJOSE", "CSQLite", "CMicroHTTPD", "CCurl", "CZxcvbn",
                           "CHiredis", "CPostgreSQL"],
            swiftSettings: strictSettings
        ),
        // The SDK an app links: Foundation only, so an iOS app can add it with SwiftPM.
        .target(
            name: "LatchkeyClient",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "latchkey",
            dependencies: ["LatchkeyServer", "LatchkeyCrypto", "LatchkeyClient"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyCryptoTests",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyJOSETests",
            dependencies: ["LatchkeyJOSE", "LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyServerTests",
            dependencies: ["LatchkeyServer", "LatchkeyCrypto", "LatchkeyJOSE"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyClientTests",
            dependencies: ["LatchkeyClient"],
            swiftSettings: strictSettings
        ),
        // The SwiftUI sample app's logic (Examples/LatchkeyExample): portable, so it builds
        // and is tested on Linux with the rest; the app's views stay thin.
        .target(
            name: "LatchkeyExampleModel",
            dependencies: ["LatchkeyClient"],
            path: "Examples/LatchkeyExample/Model",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyExampleModelTests",
            dependencies: ["LatchkeyExampleModel", "LatchkeyClient"],
            path: "Examples/LatchkeyExample/ModelTests",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

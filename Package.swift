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
        .library(name: "LatchkeyClient", targets: ["LatchkeyClient"]),
    ],
    targets: [
        // C shims: one system-library target per C library (CLinux: the C library's own).
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
        // QR codes for authenticator enrolment, drawn as SVG by the pages.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // The C library's Linux calls that Swift's Glibc module does not import.
        .systemLibrary(name: "CLinux"),
        // Latchkey's one C code: ECDSA P-256 nonces prepared in batches, over libcrypto.
        .target(name: "CECDSANonces", dependencies: ["COpenSSL"]),

        // Crypto and JOSE: the primitives every layer above may use.
        .target(
            name: "LatchkeyCrypto",
            dependencies: ["COpenSSL", "CECDSANonces", "CArgon2", "CLinux"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyJOSE",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        // WebAuthn verification (CBOR, COSE keys, authenticator data, the §7.1/§7.2
        // ceremonies) as pure functions over the crypto primitives; no JOSE, no domain.
        .target(
            name: "LatchkeyWebAuthn",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        // The domain core: records, persistence protocols owned by their domain, services,
        // errors, clock, logging. No C library, no HTTP, no SQL.
        .target(
            name: "LatchkeyCore",
            dependencies: ["LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyWebAuthn"],
            swiftSettings: strictSettings
        ),
        // Adapters, each over one C library (or none) and the core; never over each other.
        .target(
            name: "LatchkeyPasswordStrength",
            dependencies: ["LatchkeyCore", "CZxcvbn"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyHTTP",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto", "CMicroHTTPD"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyStorage",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyWebAuthn", "CSQLite", "CPostgreSQL"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyRedis",
            dependencies: ["LatchkeyCore", "CHiredis"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyMail",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto", "CCurl"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LatchkeyWeb",
            dependencies: ["LatchkeyCore", "CQREncode"],
            swiftSettings: strictSettings
        ),
        // The application: configuration, the route table, wiring, background jobs.
        .target(
            name: "LatchkeyServer",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyWebAuthn", "LatchkeyHTTP", "LatchkeyStorage",
                           "LatchkeyRedis", "LatchkeyMail", "LatchkeyWeb", "LatchkeyPasswordStrength"],
            swiftSettings: strictSettings
        ),
        // The SDK an app links: Foundation only, so an iOS app can add it with SwiftPM.
        .target(
            name: "LatchkeyClient",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "latchkey",
            dependencies: ["LatchkeyServer", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyMail", "LatchkeyClient"],
            swiftSettings: strictSettings
        ),
        // Fixtures every test target shares: temporary directories, the helper-process
        // launcher (and the processes it starts: openssl's certificate, a private Redis), the
        // manual clock, the log sink, a raw HTTP client socket, threads released together.
        .target(
            name: "LatchkeyTestSupport",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto"],
            path: "Tests/LatchkeyTestSupport",
            swiftSettings: strictSettings
        ),
        // What the OAuth tests of several targets share: the key set a SigningKeyRing serves.
        .target(
            name: "LatchkeyOAuthTestSupport",
            dependencies: ["LatchkeyCore", "LatchkeyJOSE"],
            path: "Tests/LatchkeyOAuthTestSupport",
            swiftSettings: strictSettings
        ),
        // A software authenticator (P-256, Ed25519 and RSA credentials, `none` and `packed`
        // self attestation) and a CBOR encoder, for the WebAuthn tests of every target.
        .target(
            name: "LatchkeyWebAuthnTestSupport",
            dependencies: ["LatchkeyWebAuthn", "LatchkeyCrypto"],
            path: "Tests/LatchkeyWebAuthnTestSupport",
            swiftSettings: strictSettings
        ),
        // One test target per module under test (Tests/<target>/); each depends on what its
        // files import. Fixtures that need a module's internals (`@testable import`) stay in
        // the one test target that uses them: StoreFixture and the PostgreSQL test database
        // in LatchkeyStorageTests.
        .testTarget(
            name: "LatchkeyCryptoTests",
            dependencies: ["LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CECDSANoncesTests",
            dependencies: ["CECDSANonces", "COpenSSL"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyJOSETests",
            dependencies: ["LatchkeyJOSE", "LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyWebAuthnTests",
            dependencies: ["LatchkeyWebAuthn", "LatchkeyCrypto", "LatchkeyWebAuthnTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyCoreTests",
            dependencies: ["LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyWebAuthn", "LatchkeyTestSupport", "LatchkeyOAuthTestSupport",
                           "LatchkeyWebAuthnTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyPasswordStrengthTests",
            dependencies: ["LatchkeyPasswordStrength", "LatchkeyCore", "LatchkeyCrypto"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LatchkeyHTTPTests",
            dependencies: ["LatchkeyHTTP", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyTestSupport"],
            swiftSettings: strictSettings
        ),
        // The SQL stores and their contracts, and the services whose tests read the stored rows
        // back through StoreFixture; LatchkeyServer for opening the store a configuration names.
        .testTarget(
            name: "LatchkeyStorageTests",
            dependencies: ["LatchkeyStorage", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyPasswordStrength",
                           "LatchkeyServer", "LatchkeyWebAuthn", "LatchkeyTestSupport", "LatchkeyOAuthTestSupport", "LatchkeyWebAuthnTestSupport"],
            swiftSettings: strictSettings
        ),
        // RedisRateLimiter, and the limiter contract run against the local limiter and Redis.
        .testTarget(
            name: "LatchkeyRedisTests",
            dependencies: ["LatchkeyRedis", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyTestSupport"],
            swiftSettings: strictSettings
        ),
        // The transports and the written mail, and the outbox worker over a real SQLite store.
        .testTarget(
            name: "LatchkeyMailTests",
            dependencies: ["LatchkeyMail", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyStorage", "LatchkeyTestSupport"],
            swiftSettings: strictSettings
        ),
        // Routes, configuration and wiring: the application in process.
        .testTarget(
            name: "LatchkeyServerTests",
            dependencies: ["LatchkeyServer", "LatchkeyCore", "LatchkeyCrypto", "LatchkeyJOSE", "LatchkeyHTTP",
                           "LatchkeyRedis", "LatchkeyWeb", "LatchkeyWebAuthn", "LatchkeyClient", "LatchkeyTestSupport", "LatchkeyOAuthTestSupport",
                           "LatchkeyWebAuthnTestSupport"],
            swiftSettings: strictSettings
        ),
        // The SDK against the server binary; also the sample app's model against it
        // (SampleAppTests), which its own tests, run in the Simulator too, cannot start. The
        // software authenticator stands in for the platform's passkeys.
        .testTarget(
            name: "LatchkeyClientTests",
            dependencies: ["LatchkeyClient", "LatchkeyTestSupport", "LatchkeyExampleModel", "LatchkeyWebAuthn", "LatchkeyWebAuthnTestSupport"],
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

// libFuzzer targets (Fuzz/, docs/fuzzing.md): one executable per parser of untrusted bytes,
// declared only when LATCHKEY_FUZZ is set. They have no `main` of their own (libFuzzer's
// links in with -sanitize=fuzzer), so they build only as scripts/fuzz.sh builds them, into
// .build/fuzz; `swift build` and `make test`'s Swift build never see them.
if Context.environment["LATCHKEY_FUZZ"] != nil {
    /// Each fuzz target and the modules its harness reads.
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzJSONBody", ["LatchkeyHTTP", "LatchkeyCore", "LatchkeyCrypto"]),
        ("FuzzFormParameters", ["LatchkeyHTTP", "LatchkeyCore"]),
        ("FuzzCookies", ["LatchkeyHTTP", "LatchkeyCore"]),
        ("FuzzBearerToken", ["LatchkeyHTTP", "LatchkeyCore", "LatchkeyCrypto"]),
        ("FuzzRequestTarget", ["LatchkeyHTTP", "LatchkeyCore"]),
        ("FuzzIPAddress", ["LatchkeyHTTP", "LatchkeyCore"]),
        ("FuzzAcceptLanguage", ["LatchkeyCore"]),
        ("FuzzUserAgent", ["LatchkeyCore"]),
        ("FuzzEmailAddress", ["LatchkeyCore"]),
        ("FuzzRedirectURI", ["LatchkeyCore"]),
        ("FuzzAuthorizationRequest", ["LatchkeyCore"]),
        ("FuzzJWS", ["LatchkeyJOSE", "LatchkeyCrypto"]),
        ("FuzzJWK", ["LatchkeyJOSE", "LatchkeyCrypto"]),
        ("FuzzPHCString", ["LatchkeyCrypto"]),
        ("FuzzMIME", ["LatchkeyMail", "LatchkeyCore"]),
        ("FuzzAccountLinks", ["LatchkeyClient"]),
        ("FuzzHTTPDate", ["LatchkeyClient"]),
        ("FuzzSPKI", ["LatchkeyClient"]),
        ("FuzzClientReplies", ["LatchkeyClient"]),
        ("FuzzCBOR", ["LatchkeyWebAuthn"]),
        ("FuzzCOSEKey", ["LatchkeyWebAuthn"]),
        ("FuzzAuthenticatorData", ["LatchkeyWebAuthn"]),
        ("FuzzClientData", ["LatchkeyWebAuthn"]),
        ("FuzzDirectusExport", ["LatchkeyCore"]),
    ]
    package.targets += [
        .target(name: "LatchkeyFuzzSupport", path: "Fuzz/Support", swiftSettings: strictSettings),
    ]
    package.targets += fuzzTargets.map { target in
        .executableTarget(
            name: target.name, dependencies: ["LatchkeyFuzzSupport"] + target.dependencies,
            path: "Fuzz/Targets/\(target.name)", swiftSettings: strictSettings)
    }
}

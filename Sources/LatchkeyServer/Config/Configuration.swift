package import LatchkeyCore
package import LatchkeyHTTP
package import LatchkeyStorage
package import LatchkeyRedis
package import Foundation
package import LatchkeyCrypto

/// Every setting of `latchkey serve`, read from `LATCHKEY_*` environment variables and an
/// optional JSON file (`LATCHKEY_CONFIG_FILE`, an object with the same names as keys;
/// the environment wins). Loading validates everything: a bad value stops start-up with
/// an error naming the variable.
package struct Configuration: Sendable {
    /// How mail leaves the server.
    package enum MailTransportKind: String, Sendable {
        /// One `.eml` file per message under `DATA_DIR/outbox` (development).
        case file
        /// SMTP with STARTTLS or implicit TLS and AUTH.
        case smtp
    }

    /// SMTP settings, when the transport is `smtp`.
    package struct SMTPSettings: Sendable {
        /// `smtp://host:port` (STARTTLS required) or `smtps://host:port` (implicit TLS).
        package var url: URL
        /// The AUTH user name, if the server requires one.
        package var username: String?
        /// The AUTH password.
        package var password: Redacted<String>?
        /// Allow plain-text SMTP when the host is a loopback address.
        package var allowInsecureLoopback: Bool
        /// A PEM file of CA certificates to trust instead of the system's.
        package var caFile: String?
        /// Seconds one delivery may take before it counts as failed.
        package var timeout: Int
    }

    /// Host and port the HTTP server binds (`LATCHKEY_LISTEN`).
    package var listenHost: String
    /// The port to bind; 0 picks a free one.
    package var listenPort: Int
    /// The certificate and key for HTTPS (`LATCHKEY_TLS_CERT`, `LATCHKEY_TLS_KEY`, PEM files);
    /// nil serves plain HTTP (e.g. behind a TLS-terminating proxy).
    package var tls: TLSCredentials?
    /// The externally visible base URL, without trailing slash (`LATCHKEY_PUBLIC_URL`).
    package var publicURL: URL
    /// Where the SQLite database, keys and the file outbox live (`LATCHKEY_DATA_DIR`).
    package var dataDirectory: URL
    /// The token-signing key file (`LATCHKEY_SIGNING_KEYS_FILE`; default `DATA_DIR/signing-keys.json`).
    /// Instances behind one load balancer share it.
    package var signingKeysFile: URL
    /// The address-hash key file (`LATCHKEY_ADDRESS_KEY_FILE`; default `DATA_DIR/address-hash.key`).
    /// Instances behind one load balancer share it.
    package var addressKeyFile: URL
    /// The PostgreSQL database to use instead of SQLite (`LATCHKEY_DATABASE_URL`); nil
    /// means the SQLite file in ``dataDirectory``.
    package var databaseURL: PostgresURL?
    /// The most PostgreSQL connections one server opens (`LATCHKEY_DATABASE_POOL_SIZE`).
    package var databasePoolSize: Int
    /// Seconds one PostgreSQL statement may run, and a request may wait for a free
    /// connection, before it fails (`LATCHKEY_DATABASE_STATEMENT_TIMEOUT`).
    package var databaseStatementTimeout: Int
    /// The mail transport (`LATCHKEY_MAIL_TRANSPORT`).
    package var mailTransport: MailTransportKind
    /// SMTP settings when ``mailTransport`` is `smtp`.
    package var smtp: SMTPSettings?
    /// The From address of every mail (`LATCHKEY_MAIL_FROM`).
    package var mailFromAddress: String
    /// The From display name (`LATCHKEY_MAIL_FROM_NAME`).
    package var mailFromName: String
    /// Seconds an outbox worker reserves the mail it takes (`LATCHKEY_OUTBOX_LEASE_SECONDS`): when
    /// an instance dies mid-send, another delivers its mail after this long.
    package var outboxLease: Int
    /// Reset token lifetime in seconds, 300–3600 (`LATCHKEY_RESET_TOKEN_TTL`).
    package var resetTokenTTL: Int
    /// The `aud` of every access token (`LATCHKEY_ACCESS_TOKEN_AUDIENCE`; default the package URL).
    package var accessTokenAudience: String
    /// How long an unused refresh token stays valid, in seconds (`LATCHKEY_REFRESH_IDLE_TTL`).
    package var refreshIdleTTL: Int
    /// How long a login lasts at most, in seconds, however often it is refreshed (`LATCHKEY_REFRESH_ABSOLUTE_TTL`).
    package var refreshAbsoluteTTL: Int
    /// Reset link bases a client may ask for (`LATCHKEY_RESET_URL_ALLOW_LIST`).
    package var resetURLAllowList: [String]
    /// `TEAMID.bundle.id` entries for apple-app-site-association (`LATCHKEY_APPLE_APP_IDS`).
    package var appleAppIDs: [String]
    /// `package:SHA256-fingerprint` entries for assetlinks.json (`LATCHKEY_ANDROID_APPS`).
    package var androidApps: [(package: String, fingerprint: String)]
    /// Requests per client IP allowed on the reset routes per window (`LATCHKEY_RESET_IP_LIMIT`, `N/SECONDS`).
    package var resetIPLimit: RateLimitPolicy.Window
    /// The Redis that holds rate limits shared by every instance (`LATCHKEY_REDIS_URL`);
    /// nil keeps them in this process's memory.
    package var redis: RedisEndpoint?
    /// Whether requests go through when the shared rate limiter is unreachable
    /// (`LATCHKEY_RATE_LIMIT_FAIL_OPEN`); false answers them 503.
    package var rateLimitFailOpen: Bool
    /// Maximum request body in bytes (`LATCHKEY_MAX_BODY_BYTES`).
    package var maxBodyBytes: Int
    /// Idle connection timeout in seconds (`LATCHKEY_CONNECTION_TIMEOUT`).
    package var connectionTimeout: Int
    /// Seconds a request may take to arrive whole, head and body (`LATCHKEY_REQUEST_TIMEOUT`).
    package var requestTimeout: Int
    /// Connections open at once in total (`LATCHKEY_MAX_CONNECTIONS`).
    package var maxConnections: Int
    /// Concurrent connections allowed per client IP (`LATCHKEY_PER_IP_CONNECTIONS`).
    package var perIPConnectionLimit: Int
    /// Proxy addresses whose `X-Forwarded-For` is believed (`LATCHKEY_TRUSTED_PROXIES`).
    package var trustedProxies: [String]
    /// Argon2id cost for new password hashes (`LATCHKEY_ARGON2_MEMORY_KIB`, `_ITERATIONS`, `_PARALLELISM`).
    package var argon2: Argon2Parameters
    /// The zxcvbn score (0–4) a new password must reach (`LATCHKEY_PASSWORD_MIN_SCORE`).
    package var passwordMinimumScore: Int
    /// Reset requests per 10 minutes from one IP or to one email domain before a warning is
    /// logged (`LATCHKEY_ABUSE_WARNING_THRESHOLD`).
    package var abuseWarningThreshold: Int
    /// Client IPs allowed to read `/metrics` (`LATCHKEY_METRICS_ALLOW`; default loopback only).
    package var metricsClients: [String]
    /// The least severe log level written (`LATCHKEY_LOG_LEVEL`).
    package var logLevel: Logger.Level

    /// The settings documented in the README, in the order they appear there.
    package static let variableNames = [
        "LATCHKEY_CONFIG_FILE", "LATCHKEY_LISTEN",
        "LATCHKEY_TLS_CERT", "LATCHKEY_TLS_KEY",
        "LATCHKEY_PUBLIC_URL", "LATCHKEY_DATA_DIR",
        "LATCHKEY_SIGNING_KEYS_FILE", "LATCHKEY_ADDRESS_KEY_FILE",
        "LATCHKEY_DATABASE_URL", "LATCHKEY_DATABASE_POOL_SIZE", "LATCHKEY_DATABASE_STATEMENT_TIMEOUT",
        "LATCHKEY_MAIL_TRANSPORT", "LATCHKEY_MAIL_FROM", "LATCHKEY_MAIL_FROM_NAME",
        "LATCHKEY_SMTP_URL", "LATCHKEY_SMTP_USERNAME", "LATCHKEY_SMTP_PASSWORD",
        "LATCHKEY_SMTP_ALLOW_INSECURE_LOOPBACK", "LATCHKEY_SMTP_CA_FILE", "LATCHKEY_SMTP_TIMEOUT",
        "LATCHKEY_OUTBOX_LEASE_SECONDS",
        "LATCHKEY_RESET_TOKEN_TTL", "LATCHKEY_ACCESS_TOKEN_AUDIENCE", "LATCHKEY_REFRESH_IDLE_TTL",
        "LATCHKEY_REFRESH_ABSOLUTE_TTL", "LATCHKEY_RESET_URL_ALLOW_LIST", "LATCHKEY_APPLE_APP_IDS",
        "LATCHKEY_ANDROID_APPS", "LATCHKEY_RESET_IP_LIMIT",
        "LATCHKEY_REDIS_URL", "LATCHKEY_RATE_LIMIT_FAIL_OPEN",
        "LATCHKEY_MAX_BODY_BYTES",
        "LATCHKEY_CONNECTION_TIMEOUT", "LATCHKEY_REQUEST_TIMEOUT", "LATCHKEY_MAX_CONNECTIONS", "LATCHKEY_PER_IP_CONNECTIONS", "LATCHKEY_TRUSTED_PROXIES",
        "LATCHKEY_ARGON2_MEMORY_KIB", "LATCHKEY_ARGON2_ITERATIONS", "LATCHKEY_ARGON2_PARALLELISM",
        "LATCHKEY_PASSWORD_MIN_SCORE", "LATCHKEY_ABUSE_WARNING_THRESHOLD", "LATCHKEY_METRICS_ALLOW", "LATCHKEY_LOG_LEVEL",
    ]

    /// Reads and validates the configuration from `environment` (and the JSON file it names).
    /// Throws ``LatchkeyError`` with code `invalid_configuration` naming the bad variable.
    package static func load(environment: [String: String]) throws -> Configuration {
        var reader = try SettingsReader(environment: environment)
        return try Configuration(reader: &reader)
    }

    private init(reader: inout SettingsReader) throws {
        (listenHost, listenPort) = try reader.hostAndPort("LATCHKEY_LISTEN", default: "127.0.0.1:8080")
        tls = try Self.tlsCredentials(reader)
        let defaultHost = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
        let defaultScheme = tls == nil ? "http" : "https"
        publicURL = try reader.url("LATCHKEY_PUBLIC_URL", default: "\(defaultScheme)://\(defaultHost):\(listenPort)",
                                   schemes: ["http", "https"])
        dataDirectory = URL(fileURLWithPath: reader.string("LATCHKEY_DATA_DIR") ?? "./data").standardizedFileURL
        signingKeysFile = reader.string("LATCHKEY_SIGNING_KEYS_FILE").map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? dataDirectory.appendingPathComponent("signing-keys.json")
        addressKeyFile = reader.string("LATCHKEY_ADDRESS_KEY_FILE").map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? dataDirectory.appendingPathComponent("address-hash.key")
        databaseURL = try reader.string("LATCHKEY_DATABASE_URL").map(PostgresURL.init)
        databasePoolSize = try reader.integer("LATCHKEY_DATABASE_POOL_SIZE", default: 8, range: 1...200)
        databaseStatementTimeout = try reader.integer("LATCHKEY_DATABASE_STATEMENT_TIMEOUT", default: 5, range: 1...300)
        mailTransport = try reader.choice("LATCHKEY_MAIL_TRANSPORT", default: .file)
        let publicHost = publicURL.host ?? ""
        let senderDomain = IPAddress(publicHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil && publicHost.contains(".")
            ? publicHost : "latchkey.localhost"
        mailFromAddress = try reader.emailAddress("LATCHKEY_MAIL_FROM", default: "no-reply@\(senderDomain)")
        mailFromName = try reader.headerText("LATCHKEY_MAIL_FROM_NAME", default: "Latchkey")
        if mailTransport == .smtp {
            guard let url = try reader.optionalURL("LATCHKEY_SMTP_URL", schemes: ["smtp", "smtps"]) else {
                throw SettingsReader.invalid("LATCHKEY_SMTP_URL", "is required when LATCHKEY_MAIL_TRANSPORT=smtp")
            }
            smtp = SMTPSettings(
                url: url,
                username: reader.string("LATCHKEY_SMTP_USERNAME"),
                password: reader.string("LATCHKEY_SMTP_PASSWORD").map(Redacted.init),
                allowInsecureLoopback: try reader.bool("LATCHKEY_SMTP_ALLOW_INSECURE_LOOPBACK", default: false),
                caFile: reader.string("LATCHKEY_SMTP_CA_FILE"),
                timeout: try reader.integer("LATCHKEY_SMTP_TIMEOUT", default: 30, range: 1...300))
        } else {
            smtp = nil
        }
        outboxLease = try reader.integer("LATCHKEY_OUTBOX_LEASE_SECONDS", default: 300, range: 5...3600)
        resetTokenTTL = try reader.integer("LATCHKEY_RESET_TOKEN_TTL", default: 1200, range: 300...3600)
        accessTokenAudience = reader.string("LATCHKEY_ACCESS_TOKEN_AUDIENCE") ?? publicURL.absoluteString
        guard (1...512).contains(accessTokenAudience.utf8.count), !accessTokenAudience.contains(where: \.isWhitespace) else {
            throw SettingsReader.invalid("LATCHKEY_ACCESS_TOKEN_AUDIENCE", "must be 1 to 512 characters without spaces")
        }
        refreshIdleTTL = try reader.integer("LATCHKEY_REFRESH_IDLE_TTL", default: 7 * 86_400, range: 3600...90 * 86_400)
        refreshAbsoluteTTL = try reader.integer(
            "LATCHKEY_REFRESH_ABSOLUTE_TTL", default: 30 * 86_400, range: refreshIdleTTL...365 * 86_400)
        resetURLAllowList = try reader.list("LATCHKEY_RESET_URL_ALLOW_LIST").map { entry in
            guard let url = URL(string: entry), let scheme = url.scheme, !scheme.isEmpty,
                  url.fragment == nil, url.query == nil else {
                throw SettingsReader.invalid("LATCHKEY_RESET_URL_ALLOW_LIST", "entry '\(entry)' is not an absolute URL without query or fragment")
            }
            if scheme == "http" || scheme == "https", url.host?.isEmpty ?? true {
                throw SettingsReader.invalid("LATCHKEY_RESET_URL_ALLOW_LIST", "entry '\(entry)' has no host")
            }
            do {
                try MailTemplates.checkLink(entry, name: "link")
            } catch {
                throw SettingsReader.invalid("LATCHKEY_RESET_URL_ALLOW_LIST", "entry '\(entry)' cannot be a mail link (needs scheme:/path or scheme://host/path, and no javascript:, data:, vbscript: or file:)")
            }
            return entry
        }
        appleAppIDs = try reader.list("LATCHKEY_APPLE_APP_IDS").map { entry in
            let parts = entry.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10,
                  parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                  parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw SettingsReader.invalid("LATCHKEY_APPLE_APP_IDS", "entry '\(entry)' is not TEAMID.bundle.id (10-character team id)")
            }
            return entry
        }
        androidApps = try reader.list("LATCHKEY_ANDROID_APPS").map { entry in
            guard let colon = entry.firstIndex(of: ":") else {
                throw SettingsReader.invalid("LATCHKEY_ANDROID_APPS", "entry '\(entry)' is not package:fingerprint")
            }
            let package = String(entry[..<colon])
            let fingerprint = String(entry[entry.index(after: colon)...]).uppercased()
            let octets = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
            guard !package.isEmpty, package.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }),
                  octets.count == 32, octets.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
                throw SettingsReader.invalid("LATCHKEY_ANDROID_APPS", "entry '\(entry)' is not package:SHA-256 fingerprint (32 hex octets separated by ':')")
            }
            return (package, fingerprint)
        }
        resetIPLimit = try reader.rateWindow("LATCHKEY_RESET_IP_LIMIT", default: "20/600")
        redis = try reader.string("LATCHKEY_REDIS_URL").map { try RedisEndpoint(url: $0, settingName: "LATCHKEY_REDIS_URL") }
        rateLimitFailOpen = try reader.bool("LATCHKEY_RATE_LIMIT_FAIL_OPEN", default: false)
        maxBodyBytes = try reader.integer("LATCHKEY_MAX_BODY_BYTES", default: 65_536, range: 1024...10_485_760)
        connectionTimeout = try reader.integer("LATCHKEY_CONNECTION_TIMEOUT", default: 30, range: 1...3600)
        requestTimeout = try reader.integer("LATCHKEY_REQUEST_TIMEOUT", default: 10, range: 1...3600)
        maxConnections = try reader.integer("LATCHKEY_MAX_CONNECTIONS", default: 10_000, range: 1...1_000_000)
        perIPConnectionLimit = try reader.integer("LATCHKEY_PER_IP_CONNECTIONS", default: 32, range: 1...100_000)
        trustedProxies = try reader.list("LATCHKEY_TRUSTED_PROXIES").map { entry in
            guard IPAddress(entry) != nil else {
                throw SettingsReader.invalid("LATCHKEY_TRUSTED_PROXIES", "entry '\(entry)' is not an IP address")
            }
            return entry
        }
        let memory = try reader.integer("LATCHKEY_ARGON2_MEMORY_KIB", default: 19_456, range: 19_456...Argon2Parameters.maximumMemoryKiB)
        let iterations = try reader.integer("LATCHKEY_ARGON2_ITERATIONS", default: 2, range: 2...Argon2Parameters.maximumIterations)
        let parallelism = try reader.integer("LATCHKEY_ARGON2_PARALLELISM", default: 1, range: 1...16)
        do {
            argon2 = try Argon2Parameters(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
        } catch {
            throw SettingsReader.invalid("LATCHKEY_ARGON2_MEMORY_KIB", "is too small for LATCHKEY_ARGON2_PARALLELISM=\(parallelism)")
        }
        passwordMinimumScore = try reader.integer("LATCHKEY_PASSWORD_MIN_SCORE", default: 3, range: 0...4)
        abuseWarningThreshold = try reader.integer("LATCHKEY_ABUSE_WARNING_THRESHOLD", default: 100, range: 1...1_000_000)
        let metricsList = reader.list("LATCHKEY_METRICS_ALLOW")
        metricsClients = try (metricsList.isEmpty ? ["127.0.0.1", "::1"] : metricsList).map { entry in
            guard IPAddress(entry) != nil else {
                throw SettingsReader.invalid("LATCHKEY_METRICS_ALLOW", "entry '\(entry)' is not an IP address")
            }
            return entry
        }
        logLevel = try reader.choice("LATCHKEY_LOG_LEVEL", default: .info)
        try reader.rejectUnknownFileKeys()
    }

    /// Reads the PEM files named by `LATCHKEY_TLS_CERT` and `LATCHKEY_TLS_KEY` (both or
    /// neither); errors name the variable and the path, never the key.
    private static func tlsCredentials(_ reader: SettingsReader) throws -> TLSCredentials? {
        let certificatePath = reader.string("LATCHKEY_TLS_CERT")
        let keyPath = reader.string("LATCHKEY_TLS_KEY")
        guard let certificatePath, let keyPath else {
            if certificatePath != nil { throw SettingsReader.invalid("LATCHKEY_TLS_KEY", "is required when LATCHKEY_TLS_CERT is set") }
            if keyPath != nil { throw SettingsReader.invalid("LATCHKEY_TLS_CERT", "is required when LATCHKEY_TLS_KEY is set") }
            return nil
        }
        func text(_ name: String, _ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw SettingsReader.invalid(name, "cannot read '\(path)' (a PEM file readable by the server)")
            }
            return text
        }
        let certificate = try text("LATCHKEY_TLS_CERT", certificatePath)
        let key = Redacted(try text("LATCHKEY_TLS_KEY", keyPath))
        do {
            return try TLSCredentials(certificateChainPEM: certificate, privateKeyPEM: key)
        } catch let error as LatchkeyError {
            let name = error.message.contains("certificate") ? "LATCHKEY_TLS_CERT" : "LATCHKEY_TLS_KEY"
            throw SettingsReader.invalid(name, "'\(name == "LATCHKEY_TLS_CERT" ? certificatePath : keyPath)': \(error.message)")
        }
    }

    /// The SQLite database file.
    package var databasePath: String { dataDirectory.appendingPathComponent("latchkey.sqlite3").path }
    /// The directory of `.eml` files written by the file transport.
    package var outboxDirectory: URL { dataDirectory.appendingPathComponent("outbox", isDirectory: true) }
    /// The default reset link base: the package URL's `/reset-password` page.
    package var defaultResetURL: String { publicURL.absoluteString + "/reset-password" }

    /// What an operator should set before production, given the current settings.
    package var productionAdvice: [String] {
        var advice: [String] = []
        if publicURL.scheme != "https" { advice.append("LATCHKEY_PUBLIC_URL: set the https URL users reach (now \(publicURL.absoluteString))") }
        if mailTransport == .file { advice.append("LATCHKEY_MAIL_TRANSPORT=smtp with LATCHKEY_SMTP_URL, LATCHKEY_SMTP_USERNAME, LATCHKEY_SMTP_PASSWORD: mail is only written to \(outboxDirectory.path)") }
        if appleAppIDs.isEmpty { advice.append("LATCHKEY_APPLE_APP_IDS: your TEAMID.bundle.id so reset links open the iOS app") }
        if resetURLAllowList.isEmpty { advice.append("LATCHKEY_RESET_URL_ALLOW_LIST: the reset link bases your apps may ask for (optional)") }
        return advice
    }
}

package import LatchkeyCore
package import LatchkeyHTTP
package import LatchkeyStorage
package import LatchkeyRedis
package import Foundation
package import LatchkeyCrypto

/// Every setting of `latchkey serve`, read from `LATCHKEY_*` environment variables and an
/// optional JSON file (``Setting/configFile``, an object with the same names as keys;
/// the environment wins), each through its entry in ``Setting/all``, the table that says
/// its name, values, default and meaning. Loading validates everything: a bad value stops
/// start-up with an error naming the variable and what it must be.
package struct Configuration: Sendable {
    /// Who may make accounts.
    /// Whether sign-ins from new devices are mailed to the account (`LATCHKEY_NEW_DEVICE_MAIL`).
    package enum NewDeviceMail: String, Sendable {
        /// Mailed, at most once an hour per account.
        case on
        /// Not mailed.
        case off
    }

    package enum Registration: String, Sendable {
        /// Only the operator (`latchkey users create`).
        case closed
        /// Anyone, by signing up and confirming the address.
        case open
    }

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
    /// The externally visible base URL, without trailing slash (`LATCHKEY_PUBLIC_URL`): https,
    /// or http for a loopback host, unless ``allowsHTTPPublicURL``.
    package var publicURL: URL
    /// Whether an http ``publicURL`` for a host other than loopback is accepted
    /// (`LATCHKEY_ALLOW_HTTP_PUBLIC_URL`, development only).
    package var allowsHTTPPublicURL: Bool
    /// Where the SQLite database, keys and the file outbox live (`LATCHKEY_DATA_DIR`).
    package var dataDirectory: URL
    /// The token-signing key file (`LATCHKEY_SIGNING_KEYS_FILE`; default `DATA_DIR/signing-keys.json`).
    /// Instances behind one load balancer share it.
    package var signingKeysFile: URL
    /// The address-hash key file (`LATCHKEY_ADDRESS_KEY_FILE`; default `DATA_DIR/address-hash.key`).
    /// Instances behind one load balancer share it.
    package var addressKeyFile: URL
    /// The secret box key file (`LATCHKEY_SECRET_KEY_FILE`; default `DATA_DIR/secret-box.key`):
    /// seals secrets kept to be read back. Instances behind one load balancer share it.
    package var secretKeyFile: URL
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
    /// The From display name (`LATCHKEY_MAIL_FROM_NAME`; default the product name).
    package var mailFromName: String
    /// The name people know the service by, in mails and on pages (`LATCHKEY_PRODUCT_NAME`).
    package var productName: String
    /// The name authenticator apps show for the account (`LATCHKEY_TOTP_ISSUER`; default the product name).
    package var totpIssuer: String
    /// Where the reset page sends people after a new password is saved (`LATCHKEY_APP_URL`);
    /// nil: the page tells them to sign in with it.
    package var appURL: URL?
    /// Who may make accounts (`LATCHKEY_REGISTRATION`).
    package var registration: Registration
    /// Whether sign-ins from new devices are mailed (`LATCHKEY_NEW_DEVICE_MAIL`).
    package var newDeviceMail: NewDeviceMail
    /// Seconds an outbox worker reserves the mail it takes (`LATCHKEY_OUTBOX_LEASE_SECONDS`): when
    /// an instance dies mid-send, another delivers its mail after this long.
    package var outboxLease: Int
    /// Reset token lifetime in seconds, 300–3600 (`LATCHKEY_RESET_TOKEN_TTL`).
    package var resetTokenTTL: Int
    /// The `aud` of every access token (`LATCHKEY_ACCESS_TOKEN_AUDIENCE`; default the public URL).
    package var accessTokenAudience: String
    /// How long an unused refresh token stays valid, in seconds (`LATCHKEY_REFRESH_IDLE_TTL`).
    package var refreshIdleTTL: Int
    /// How long a login lasts at most, in seconds, however often it is refreshed (`LATCHKEY_REFRESH_ABSOLUTE_TTL`).
    package var refreshAbsoluteTTL: Int
    /// Seconds a rotated refresh token may come back for a fresh successor while its successor is unused (`LATCHKEY_REFRESH_REUSE_GRACE`).
    package var refreshReuseGrace: Int
    /// Seconds a browser session (`latchkey_session`) lives unused, up to its 12-hour lifetime
    /// (`LATCHKEY_BROWSER_SESSION_IDLE_TTL`).
    package var browserSessionIdleTTL: Int
    /// Link bases a client may ask for as `reset_url` or `verification_url` (`LATCHKEY_RESET_URL_ALLOW_LIST`).
    package var resetURLAllowList: [String]
    /// `TEAMID.bundle.id` entries for apple-app-site-association (`LATCHKEY_APPLE_APP_IDS`).
    package var appleAppIDs: [String]
    /// `package:SHA256-fingerprint` entries for assetlinks.json (`LATCHKEY_ANDROID_APPS`).
    package var androidApps: [(package: String, fingerprint: String)]
    /// Origins besides the public URL's that may use Directus's cookie modes (`LATCHKEY_AUTH_COOKIE_ORIGINS`).
    package var authCookieOrigins: [String]
    /// The passkeys' RP ID (`LATCHKEY_PASSKEY_RP_ID`): the public URL's host or a domain it is under.
    package var passkeyRPID: String
    /// The origins passkey ceremonies may run at: the public URL's and `LATCHKEY_PASSKEY_ORIGINS`.
    package var passkeyOrigins: [String]
    /// Whether the Directus cookies are named `__Host-…` (`LATCHKEY_COOKIE_HOST_PREFIX`); only with an https public URL.
    package var cookieHostPrefix: Bool
    /// Link requests and resets per client IP allowed per window (`LATCHKEY_RESET_IP_LIMIT`, `N/SECONDS`).
    package var resetIPLimit: RateLimitPolicy.Window
    /// Link checks per client IP allowed per window, counted apart (`LATCHKEY_RESET_VALIDATE_IP_LIMIT`, `N/SECONDS`).
    package var resetValidateIPLimit: RateLimitPolicy.Window
    /// Sign-in attempts per client IP allowed per window (`LATCHKEY_LOGIN_IP_LIMIT`, `N/SECONDS`).
    package var loginIPLimit: RateLimitPolicy.Window
    /// Failed sign-ins for one account from one client IP per window (`LATCHKEY_LOGIN_FAILURE_LIMIT`, `N/SECONDS`).
    package var loginFailureLimit: RateLimitPolicy.Window
    /// Live logins one account may hold (`LATCHKEY_MAX_SESSIONS_PER_ACCOUNT`).
    package var maxSessionsPerAccount: Int
    /// Live browser sessions one account may hold (`LATCHKEY_MAX_BROWSER_SESSIONS_PER_ACCOUNT`).
    package var maxBrowserSessionsPerAccount: Int
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
    /// Request-body bytes held at once across every connection (`LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT`).
    package var maxBodyBytesInFlight: Int
    /// Concurrent connections allowed per IPv6 /56 (`LATCHKEY_PER_IPV6_56_CONNECTIONS`).
    package var perIPv6Slash56ConnectionLimit: Int
    /// Concurrent connections allowed per IPv6 /48 (`LATCHKEY_PER_IPV6_48_CONNECTIONS`).
    package var perIPv6Slash48ConnectionLimit: Int
    /// Proxy addresses whose `X-Forwarded-For` is believed (`LATCHKEY_TRUSTED_PROXIES`).
    package var trustedProxies: [String]
    /// Argon2id cost for new password hashes (`LATCHKEY_ARGON2_MEMORY_KIB`, `_ITERATIONS`, `_PARALLELISM`).
    package var argon2: Argon2Parameters
    /// Threads that run the request handlers (`LATCHKEY_WORKER_THREADS`; default 4 per usable core).
    package var workerThreads: Int
    /// Password hashes computed at once (`LATCHKEY_HASH_CONCURRENCY`; default the usable cores).
    package var hashConcurrency: Int
    /// The zxcvbn score (0–4) a new password must reach (`LATCHKEY_PASSWORD_MIN_SCORE`).
    package var passwordMinimumScore: Int
    /// Reset requests per 10 minutes from one IP or to one email domain before a warning is
    /// logged (`LATCHKEY_ABUSE_WARNING_THRESHOLD`).
    package var abuseWarningThreshold: Int
    /// The most pending reset requests before new ones are answered `503`
    /// (`LATCHKEY_RESET_INBOX_LIMIT`).
    package var resetInboxLimit: Int
    /// Client IPs allowed to read `/metrics` (`LATCHKEY_METRICS_ALLOW`; default loopback only).
    package var metricsClients: [String]
    /// The least severe log level written (`LATCHKEY_LOG_LEVEL`).
    package var logLevel: Logger.Level

    /// Whether ``publicURL`` and ``accessTokenAudience`` are derived from the listen address
    /// (not set), and so follow the port actually bound (see ``listening(onPort:)``).
    private var publicURLIsDerived: Bool
    private var audienceIsDerived: Bool

    /// Warnings about the environment that do not stop start-up: `LATCHKEY_*` variables
    /// that are no setting, each naming the closest one.
    package var warnings: [String]

    /// Reads and validates the configuration from `environment` (and the JSON file it names),
    /// each value through its entry in ``Setting/all``. Throws ``LatchkeyError`` with code
    /// `invalid_configuration` naming the bad variable and what it must be.
    package static func load(environment: [String: String]) throws -> Configuration {
        try Configuration(reader: SettingsReader(environment: environment), environment: environment)
    }

    private init(reader: SettingsReader, environment: [String: String]) throws {
        (listenHost, listenPort) = try reader.listenAddress(.listen)
        tls = try Self.tlsCredentials(reader)
        publicURLIsDerived = reader.text(.publicURL) == nil
        publicURL = try reader.baseURL(.publicURL, derived: Self.derivedPublicURL(host: listenHost, port: listenPort, tls: tls != nil))
        allowsHTTPPublicURL = try reader.flag(.allowHTTPPublicURL)
        try Self.requireTLS(publicURL, allowingHTTP: allowsHTTPPublicURL, derived: publicURLIsDerived)
        dataDirectory = reader.path(.dataDirectory)
        signingKeysFile = reader.path(.signingKeysFile, derived: dataDirectory.appendingPathComponent("signing-keys.json").path)
        addressKeyFile = reader.path(.addressKeyFile, derived: dataDirectory.appendingPathComponent("address-hash.key").path)
        secretKeyFile = reader.path(.secretKeyFile, derived: dataDirectory.appendingPathComponent("secret-box.key").path)
        databaseURL = try reader.parsed(.databaseURL, PostgresURL.init)
        databasePoolSize = try reader.integer(.databasePoolSize)
        databaseStatementTimeout = try reader.integer(.databaseStatementTimeout)
        mailTransport = try reader.choice(.mailTransport)
        let publicHost = publicURL.host ?? ""
        let senderDomain = IPAddress(publicHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil && publicHost.contains(".")
            ? publicHost : "latchkey.localhost"
        mailFromAddress = try reader.emailAddress(.mailFrom, derived: "no-reply@\(senderDomain)")
        productName = try reader.string(.productName)
        mailFromName = try reader.string(.mailFromName, derived: productName)
        totpIssuer = try reader.string(.totpIssuer, derived: productName)
        appURL = try reader.optionalURL(.appURL)
        registration = try reader.choice(.registration)
        newDeviceMail = try reader.choice(.newDeviceMail)
        if mailTransport == .smtp {
            guard let url = try reader.optionalURL(.smtpURL) else {
                throw SettingsReader.invalid(.smtpURL, "is required when \(Setting.mailTransport.name)=smtp")
            }
            smtp = SMTPSettings(
                url: url,
                username: try reader.optionalString(.smtpUsername),
                password: reader.secret(.smtpPassword),
                allowInsecureLoopback: try reader.flag(.smtpAllowInsecureLoopback),
                caFile: reader.text(.smtpCAFile),
                timeout: try reader.integer(.smtpTimeout))
        } else {
            smtp = nil
        }
        outboxLease = try reader.integer(.outboxLease)
        resetTokenTTL = try reader.integer(.resetTokenTTL)
        audienceIsDerived = reader.text(.accessTokenAudience) == nil
        accessTokenAudience = try reader.string(.accessTokenAudience, derived: publicURL.absoluteString)
        refreshIdleTTL = try reader.integer(.refreshIdleTTL)
        refreshAbsoluteTTL = try reader.integer(.refreshAbsoluteTTL, atLeast: refreshIdleTTL)
        refreshReuseGrace = try reader.integer(.refreshReuseGrace)
        browserSessionIdleTTL = try reader.integer(.browserSessionIdleTTL)
        resetURLAllowList = try reader.list(.resetURLAllowList)
        authCookieOrigins = try reader.list(.authCookieOrigins)
        cookieHostPrefix = try reader.flag(.cookieHostPrefix)
        if cookieHostPrefix, publicURL.scheme != "https" {
            throw SettingsReader.invalid(
                .cookieHostPrefix, "needs an https \(Setting.publicURL.name): browsers keep a __Host- cookie only when it is Secure")
        }
        (passkeyRPID, passkeyOrigins) = try Self.passkeyRelyingParty(reader, publicURL: publicURL)
        appleAppIDs = try reader.list(.appleAppIDs)
        androidApps = try reader.list(.androidApps).map { entry in
            let parts = entry.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts[1]))
        }
        resetIPLimit = try reader.rateWindow(.resetIPLimit)
        resetValidateIPLimit = try reader.rateWindow(.resetValidateIPLimit)
        loginIPLimit = try reader.rateWindow(.loginIPLimit)
        loginFailureLimit = try reader.rateWindow(.loginFailureLimit)
        maxSessionsPerAccount = try reader.integer(.maxSessionsPerAccount)
        maxBrowserSessionsPerAccount = try reader.integer(.maxBrowserSessionsPerAccount)
        let redisCAFile = reader.text(.redisCAFile)
        redis = try reader.parsed(.redisURL) { try RedisEndpoint(url: $0, settingName: Setting.redisURL.name, caFile: redisCAFile) }
        if let redisCAFile {
            guard redis?.tls == true else { throw SettingsReader.invalid(.redisCAFile, "is only for a rediss:// \(Setting.redisURL.name)") }
            guard FileManager.default.isReadableFile(atPath: redisCAFile) else {
                throw SettingsReader.invalid(.redisCAFile, "'\(redisCAFile)' is not a readable file")
            }
        }
        rateLimitFailOpen = try reader.flag(.rateLimitFailOpen)
        maxBodyBytes = try reader.integer(.maxBodyBytes)
        connectionTimeout = try reader.integer(.connectionTimeout)
        requestTimeout = try reader.integer(.requestTimeout)
        maxConnections = try reader.integer(.maxConnections)
        perIPConnectionLimit = try reader.integer(.perIPConnections)
        maxBodyBytesInFlight = try reader.integer(
            .maxBodyBytesInFlight, atLeast: maxBodyBytes,
            derived: HTTPServerConfiguration.defaultBodyBytesInFlight(connectionLimit: maxConnections, maxBodyBytes: maxBodyBytes))
        perIPv6Slash56ConnectionLimit = try reader.integer(
            .perIPv6Slash56Connections, atLeast: perIPConnectionLimit, derived: 4 * perIPConnectionLimit)
        perIPv6Slash48ConnectionLimit = try reader.integer(
            .perIPv6Slash48Connections, atLeast: perIPv6Slash56ConnectionLimit,
            derived: max(16 * perIPConnectionLimit, perIPv6Slash56ConnectionLimit))
        trustedProxies = try reader.list(.trustedProxies)
        workerThreads = try reader.integer(.workerThreads, derived: HTTPServerConfiguration.defaultWorkerThreads)
        hashConcurrency = try reader.integer(.hashConcurrency, derived: AvailableProcessors.count)
        let memory = try reader.integer(.argon2Memory)
        let iterations = try reader.integer(.argon2Iterations)
        let parallelism = try reader.integer(.argon2Parallelism)
        do {
            argon2 = try Argon2Parameters(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
        } catch {
            throw SettingsReader.invalid(.argon2Memory, "is too small for \(Setting.argon2Parallelism.name)=\(parallelism)")
        }
        passwordMinimumScore = try reader.integer(.passwordMinimumScore)
        abuseWarningThreshold = try reader.integer(.abuseWarningThreshold)
        resetInboxLimit = try reader.integer(.resetInboxLimit)
        metricsClients = try reader.list(.metricsAllow)
        logLevel = try reader.choice(.logLevel)
        try reader.rejectUnknownFileKeys()
        warnings = Setting.unknownVariableWarnings(in: environment)
    }

    /// Refuses an http public URL whose host is not loopback (127.0.0.0/8, `::1`, `localhost`)
    /// unless `allowingHTTP`: it is the issuer, and every endpoint, token, password and cookie
    /// would cross the network unencrypted (RFC 6749 §10.3, §10.9; RFC 8414 §2).
    /// The passkeys' RP ID and origins: the RP ID must be the public URL's host or a domain it
    /// is under, and so must every web origin's host (WebAuthn §5.1.4.1 refuses any other).
    private static func passkeyRelyingParty(_ reader: SettingsReader, publicURL: URL) throws -> (String, [String]) {
        let host = (publicURL.host ?? "").lowercased()
        let rpID = try reader.string(.passkeyRPID, derived: host).lowercased()
        func isUnder(_ origin: String) -> Bool {
            guard let originHost = URL(string: origin)?.host?.lowercased() else { return false }
            return originHost == rpID || originHost.hasSuffix("." + rpID)
        }
        guard !rpID.hasPrefix("."), !rpID.hasSuffix("."), isUnder(publicURL.absoluteString) else {
            throw SettingsReader.invalid(.passkeyRPID, "must be the host of \(Setting.publicURL.name) (\(host)) or a domain it is under")
        }
        let others = try reader.list(.passkeyOrigins)
        if let stray = others.first(where: { !$0.hasPrefix("android:") && !isUnder($0) }) {
            throw SettingsReader.invalid(.passkeyOrigins, "\(stray) is not under the RP ID \(rpID)")
        }
        let own = publicURL.webOrigin ?? publicURL.absoluteString
        return (rpID, [own] + others.filter { $0 != own })
    }

    private static func requireTLS(_ url: URL, allowingHTTP: Bool, derived: Bool) throws {
        guard url.scheme?.lowercased() == "http", !allowingHTTP else { return }
        let host = (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if host == "localhost" || IPAddress(host)?.isLoopback == true { return }
        let origin = derived ? " (derived from \(Setting.listen.name); set it)" : ""
        throw SettingsReader.invalid(
            .publicURL,
            "must be an https URL when its host is not loopback\(origin): tokens, passwords and cookies would cross "
                + "the network unencrypted. Set the https URL people reach (TLS here or in a proxy in front), or "
                + "\(Setting.allowHTTPPublicURL.name)=true for development only")
    }

    /// The public URL when ``Setting/publicURL`` is not set: the listen address over http, or https with TLS.
    private static func derivedPublicURL(host: String, port: Int, tls: Bool) -> String {
        "\(tls ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// This configuration once the server listens on `port`: with port 0 configured, the
    /// public URL (when not set) names the port the system picked, and so do the reset links
    /// and the OAuth issuer and audience derived from it.
    package func listening(onPort port: Int) -> Configuration {
        var bound = self
        bound.listenPort = port
        if publicURLIsDerived, let url = URL(string: Self.derivedPublicURL(host: listenHost, port: port, tls: tls != nil)) {
            bound.publicURL = url
            if audienceIsDerived { bound.accessTokenAudience = url.absoluteString }
        }
        return bound
    }

    /// Reads the PEM files named by ``Setting/tlsCertificate`` and ``Setting/tlsKey`` (both or
    /// neither); errors name the variable and the path, never the key.
    private static func tlsCredentials(_ reader: SettingsReader) throws -> TLSCredentials? {
        let certificateSetting = Setting.tlsCertificate, keySetting = Setting.tlsKey
        let certificatePath = reader.text(certificateSetting)
        let keyPath = reader.text(keySetting)
        guard let certificatePath, let keyPath else {
            if certificatePath != nil { throw SettingsReader.invalid(keySetting, "is required when \(certificateSetting.name) is set") }
            if keyPath != nil { throw SettingsReader.invalid(certificateSetting, "is required when \(keySetting.name) is set") }
            return nil
        }
        func text(_ setting: Setting, _ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw SettingsReader.invalid(setting, "cannot read '\(path)' (a PEM file readable by the server)")
            }
            return text
        }
        let certificate = try text(certificateSetting, certificatePath)
        let key = Redacted(try text(keySetting, keyPath))
        do {
            return try TLSCredentials(certificateChainPEM: certificate, privateKeyPEM: key)
        } catch let error as LatchkeyError {
            let isCertificate = error.message.contains("certificate")
            throw SettingsReader.invalid(
                isCertificate ? certificateSetting : keySetting, "'\(isCertificate ? certificatePath : keyPath)': \(error.message)")
        }
    }

    /// The SQLite database file.
    package var databasePath: String { dataDirectory.appendingPathComponent("latchkey.sqlite3").path }
    /// The directory of `.eml` files written by the file transport.
    package var outboxDirectory: URL { dataDirectory.appendingPathComponent("outbox", isDirectory: true) }
    /// The default reset link base: the public URL's `/reset-password` page.
    package var defaultResetURL: String { publicURL.absoluteString + "/reset-password" }

    /// What an operator should set before production, given the current settings: one hint
    /// per setting whose table entry carries advice that still applies, in the table's order.
    package var productionAdvice: [Setting.ProductionHint] {
        Setting.all.compactMap { setting in setting.advice?.hint(for: setting, in: self) }
    }
}

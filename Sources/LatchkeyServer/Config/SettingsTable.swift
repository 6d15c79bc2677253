import Foundation
import LatchkeyCrypto

extension Setting {
    /// Every setting, in the order docs/deploy.md lists them.
    ///
    /// To add a setting: one row below (and its place in this list), and in ``Configuration``
    /// the typed property read through it, e.g.
    ///
    ///     static let maxConnections = Setting(
    ///         "LATCHKEY_MAX_CONNECTIONS", .integer(1...100_000, .count), default: "1000",
    ///         meaning: "The most connections the server keeps open at once.")
    ///     // Configuration:
    ///     package var maxConnections: Int       // and in init:
    ///     maxConnections = try reader.integer(.maxConnections)
    ///
    /// The error messages, the docs table (`latchkey settings --markdown`; a test keeps
    /// docs/deploy.md in sync), the JSON file's key check and the typo warning follow.
    package static let all: [Setting] = [
        configFile, listen, tlsCertificate, tlsKey, publicURL, allowHTTPPublicURL, dataDirectory, signingKeysFile, addressKeyFile,
        secretKeyFile, databaseURL, databasePoolSize, databaseStatementTimeout,
        mailTransport, mailFrom, mailFromName, smtpURL, smtpUsername, smtpPassword, smtpAllowInsecureLoopback, smtpCAFile,
        smtpTimeout, outboxLease, productName, totpIssuer, appURL, registration, newDeviceMail,
        resetTokenTTL, accessTokenAudience, refreshIdleTTL, refreshAbsoluteTTL, refreshReuseGrace, browserSessionIdleTTL, resetURLAllowList,
        appleAppIDs, androidApps, authCookieOrigins, cookieHostPrefix, passkeyRPID, passkeyOrigins,
        resetIPLimit, resetValidateIPLimit, loginIPLimit, loginFailureLimit, maxSessionsPerAccount, maxBrowserSessionsPerAccount, redisURL,
        redisCAFile, rateLimitFailOpen,
        maxBodyBytes, connectionTimeout, requestTimeout, maxConnections, perIPConnections, trustedProxies,
        maxBodyBytesInFlight, perIPv6Slash56Connections, perIPv6Slash48Connections,
        argon2Memory, argon2Iterations, argon2Parallelism, workerThreads, hashConcurrency, passwordMinimumScore, abuseWarningThreshold, resetInboxLimit, metricsAllow, logLevel,
        issuer,
    ]

    // MARK: Where it runs

    static let configFile = Setting(
        "LATCHKEY_CONFIG_FILE", .path("a JSON file"),
        meaning: "A JSON object with any of these settings as keys (strings, numbers or lists of strings); the environment wins.")
    static let listen = Setting(
        "LATCHKEY_LISTEN", .listenAddress, default: "127.0.0.1:8080",
        meaning: "The IP address and port the server listens on; port 0 picks a free one.")
    static let tlsCertificate = Setting(
        "LATCHKEY_TLS_CERT", .path("a PEM certificate chain"),
        meaning: "With `LATCHKEY_TLS_KEY`, the server speaks HTTPS itself (TLS 1.2 and 1.3 only) and sends "
            + "`Strict-Transport-Security: max-age=31536000`; set both or neither.")
    static let tlsKey = Setting(
        "LATCHKEY_TLS_KEY", .path("an unencrypted PEM private key"),
        meaning: "The private key of that certificate, read at start-up and never logged.")
    static let publicURL = Setting(
        "LATCHKEY_PUBLIC_URL", .url(schemes: ["http", "https"]),
        default: .derived("`http://` (`https://` with TLS) + the listen address"),
        meaning: "The URL people reach (no query or fragment; `http` only for a loopback host): the OAuth issuer, and reset links are "
            + "`PUBLIC_URL/reset-password#token=…`.",
        advice: ProductionAdvice("the `https` URL users reach", when: { $0.publicURL.scheme != "https" },
                                 now: { $0.publicURL.absoluteString }))
    static let allowHTTPPublicURL = Setting(
        "LATCHKEY_ALLOW_HTTP_PUBLIC_URL", .flag, default: "false",
        meaning: "Development only: accept an `http` `LATCHKEY_PUBLIC_URL` whose host is not loopback (127.0.0.0/8, "
            + "`::1`, `localhost`), which start-up otherwise refuses, since tokens, passwords and cookies would cross "
            + "the network unencrypted.",
        advice: ProductionAdvice("`false`, with an `https` `LATCHKEY_PUBLIC_URL`", when: { $0.allowsHTTPPublicURL }))
    static let dataDirectory = Setting(
        "LATCHKEY_DATA_DIR", .path("a directory"), default: "./data",
        meaning: "Holds the SQLite database, the key files unless set below, and the file outbox (created with mode 0700).")
    static let signingKeysFile = Setting(
        "LATCHKEY_SIGNING_KEYS_FILE", .path("a JSON file"), default: .derived("`DATA_DIR/signing-keys.json`"),
        meaning: "The token-signing keys (mode 0600); instances behind one load balancer share this file, "
            + "and reload it within a second after `latchkey keys rotate`.")
    static let addressKeyFile = Setting(
        "LATCHKEY_ADDRESS_KEY_FILE", .path("a 32-byte key file"), default: .derived("`DATA_DIR/address-hash.key`"),
        meaning: "The key for address hashes in logs and rate limits and for sign-in form tokens (mode 0600); "
            + "instances behind one load balancer share it.")
    static let secretKeyFile = Setting(
        "LATCHKEY_SECRET_KEY_FILE", .path("a 32-byte key file"), default: .derived("`DATA_DIR/secret-box.key`"),
        meaning: "The AES-256-GCM key that seals the secrets kept to be read back, such as authenticator secrets (mode 0600); "
            + "instances behind one load balancer share it. Back it up apart from the database: without it no "
            + "authenticator app's codes are accepted until each person enrols again.")

    // MARK: Database

    static let databaseURL = Setting(
        "LATCHKEY_DATABASE_URL", .url(schemes: ["postgres", "postgresql"]), default: .unset("SQLite in `DATA_DIR`"),
        meaning: "PostgreSQL instead of SQLite, e.g. `postgres://user:password@host:port/database?sslmode=verify-full` "
            + "(see PostgreSQL above); the password is never logged.")
    static let databasePoolSize = Setting(
        "LATCHKEY_DATABASE_POOL_SIZE", .integer(1...200, .count), default: "8",
        meaning: "The most PostgreSQL connections one server opens.")
    static let databaseStatementTimeout = Setting(
        "LATCHKEY_DATABASE_STATEMENT_TIMEOUT", .integer(1...300, .seconds), default: "5",
        meaning: "How long a PostgreSQL statement may run, and a request may wait for a free connection, "
            + "before it fails with `storage_unavailable` (a `503` with `Retry-After`).")

    // MARK: Mail

    static let mailTransport = Setting(
        "LATCHKEY_MAIL_TRANSPORT", .choice(["file", "smtp"]), default: "file",
        meaning: "`file` writes one `.eml` per mail under `DATA_DIR/outbox` (development); `smtp` sends it.",
        advice: ProductionAdvice(
            "`smtp`, with `\(smtpURL.name)`, `\(smtpUsername.name)` and `\(smtpPassword.name)`",
            when: { $0.mailTransport == .file }, now: { "mail is only written to \($0.outboxDirectory.path)" }))
    static let mailFrom = Setting(
        "LATCHKEY_MAIL_FROM", .emailAddress,
        default: .derived("`no-reply@` + the public host (`no-reply@latchkey.localhost` for an IP address)"),
        meaning: "The sender address of every mail.")
    static let mailFromName = Setting(
        "LATCHKEY_MAIL_FROM_NAME", .text(.line(maximumLength: 100)), default: .derived("`LATCHKEY_PRODUCT_NAME`"),
        meaning: "The sender's display name.")
    static let smtpURL = Setting(
        "LATCHKEY_SMTP_URL", .url(schemes: ["smtp", "smtps"]),
        meaning: "The SMTP server, required when `LATCHKEY_MAIL_TRANSPORT` is `smtp`: `smtp://host:port` requires "
            + "STARTTLS, `smtps://host:port` is implicit TLS.")
    static let smtpUsername = Setting(
        "LATCHKEY_SMTP_USERNAME", .text(.any), meaning: "The SMTP AUTH user.")
    static let smtpPassword = Setting(
        "LATCHKEY_SMTP_PASSWORD", .secret, meaning: "The SMTP AUTH password.")
    static let smtpAllowInsecureLoopback = Setting(
        "LATCHKEY_SMTP_ALLOW_INSECURE_LOOPBACK", .flag, default: "false",
        meaning: "Allow plain-text SMTP, only to a loopback host.")
    static let smtpCAFile = Setting(
        "LATCHKEY_SMTP_CA_FILE", .path("a PEM file"), default: .unset("the system's CAs"),
        meaning: "The CAs to trust for the SMTP server.")
    static let smtpTimeout = Setting(
        "LATCHKEY_SMTP_TIMEOUT", .integer(1...300, .seconds), default: "30",
        meaning: "How long one delivery may take.")
    static let outboxLease = Setting(
        "LATCHKEY_OUTBOX_LEASE_SECONDS", .integer(5...3600, .seconds), default: "300",
        meaning: "How long a worker reserves the mail it takes: if its instance dies mid-send, another instance "
            + "delivers the mail after this long (keep it above 10 × `LATCHKEY_SMTP_TIMEOUT`).")

    // MARK: What people see

    static let productName = Setting(
        "LATCHKEY_PRODUCT_NAME", .text(.line(maximumLength: 60)), default: "Latchkey",
        meaning: "The name people know your service by: in the subject and text of every mail, on the reset, sign-in "
            + "and consent pages, and as the sender's name unless `LATCHKEY_MAIL_FROM_NAME` is set.",
        advice: ProductionAdvice("the name people know your app by", when: { $0.productName == "Latchkey" }))
    static let totpIssuer = Setting(
        "LATCHKEY_TOTP_ISSUER", .text(.line(maximumLength: 60)), default: .derived("`LATCHKEY_PRODUCT_NAME`"),
        meaning: "The name authenticator apps show above the account's codes (the `issuer` of the `otpauth://` URL).")
    static let appURL = Setting(
        "LATCHKEY_APP_URL", .url(schemes: ["https", "http"]),
        default: .unset("the page tells people to sign in with their new password"),
        meaning: "Where the reset page sends people once their new password is saved (a “Continue to” button): "
            + "your app's universal link or your site's sign-in page.")

    static let registration = Setting(
        "LATCHKEY_REGISTRATION", .choice(["closed", "open"]), default: "closed",
        meaning: "`open` lets anyone sign up (`POST /users/register`, confirmed by a mailed link); `closed` leaves "
            + "making accounts to the operator (`latchkey users create`).")
    static let newDeviceMail = Setting(
        "LATCHKEY_NEW_DEVICE_MAIL", .choice(["on", "off"]), default: "on",
        meaning: "`on` mails an account when it is signed in to from a device it had not signed in from (in its "
            + "language: when, the app or browser, the truncated address, a link to the reset page), at most once an hour; "
            + "`off` sends none. Devices are recognised either way (docs/accounts.md, \"Recognised devices\").")

    // MARK: Tokens and links

    static let resetTokenTTL = Setting(
        "LATCHKEY_RESET_TOKEN_TTL", .integer(300...3600, .seconds), default: "1200",
        meaning: "How long a reset link stays valid.")
    static let accessTokenAudience = Setting(
        "LATCHKEY_ACCESS_TOKEN_AUDIENCE", .text(.word(maximumLength: 512)), default: .derived("the public URL"),
        meaning: "The `aud` of every access token: the API that accepts them.")
    static let refreshIdleTTL = Setting(
        "LATCHKEY_REFRESH_IDLE_TTL", .integer(3600...90 * 86_400, .seconds), default: "604800",
        meaning: "How long an unused refresh token stays valid.")
    static let refreshAbsoluteTTL = Setting(
        "LATCHKEY_REFRESH_ABSOLUTE_TTL", .integer(3600...365 * 86_400, .seconds, atLeast: refreshIdleTTL.name),
        default: "2592000",
        meaning: "How long a login lasts at most, however often it is refreshed.")
    static let refreshReuseGrace = Setting(
        "LATCHKEY_REFRESH_REUSE_GRACE", .integer(0...60, .seconds), default: "10",
        meaning: "How long after a refresh the same client may present the old refresh token again and get a fresh "
            + "one, if it never used the one it was given (it lost it: the app was killed, the Keychain was locked); "
            + "anything else is reuse and ends the login. 0 turns the grace off.")
    static let browserSessionIdleTTL = Setting(
        "LATCHKEY_BROWSER_SESSION_IDLE_TTL", .integer(300...43_200, .seconds), default: "3600",
        meaning: "How long a browser stays signed in to the sign-in and consent pages (`latchkey_session`) without "
            + "using them; each use starts it again, and 12 hours after the sign-in the session ends anyway.")
    static let resetURLAllowList = Setting(
        "LATCHKEY_RESET_URL_ALLOW_LIST", .list(.linkBase),
        meaning: "The link bases a client may pass as `reset_url` (and a sign-up as `verification_url`), matched exactly.",
        advice: ProductionAdvice("the reset link bases your apps may ask for (optional)", when: { $0.resetURLAllowList.isEmpty }))
    static let appleAppIDs = Setting(
        "LATCHKEY_APPLE_APP_IDS", .list(.appleAppID),
        meaning: "The iOS apps that open reset links (served as apple-app-site-association).",
        advice: ProductionAdvice("your `TEAMID.bundle.id`, so reset links open the iOS app", when: { $0.appleAppIDs.isEmpty }))
    static let androidApps = Setting(
        "LATCHKEY_ANDROID_APPS", .list(.androidApp),
        meaning: "The Android apps that open reset links (served as assetlinks.json).")
    static let authCookieOrigins = Setting(
        "LATCHKEY_AUTH_COOKIE_ORIGINS", .list(.origin), default: .unset("only the public URL's origin"),
        meaning: "The origins, besides the public URL's, whose pages may use `/auth/login`, `/auth/refresh` and "
            + "`/auth/logout` in Directus's `cookie` and `session` modes: apps that route `/auth/` to Latchkey "
            + "through their own origin. Others get `403`.")

    static let passkeyRPID = Setting(
        "LATCHKEY_PASSKEY_RP_ID", .text(.word(maximumLength: 253)), default: .derived("the host of `LATCHKEY_PUBLIC_URL`"),
        meaning: "The passkeys' relying party ID: the domain they belong to, the public URL's host or a domain it is under "
            + "(`example.com` for `https://login.example.com`). Passkeys made for one RP ID work for no other: choose it "
            + "before the first one is made. The iOS app's associated domain (`webcredentials:`) must be it or under it.")
    static let passkeyOrigins = Setting(
        "LATCHKEY_PASSKEY_ORIGINS", .list(.passkeyOrigin), default: .unset("only the public URL's origin"),
        meaning: "The origins, besides the public URL's, whose passkey ceremonies are accepted: web origins under the RP "
            + "ID, and Android apps as `android:apk-key-hash:` and the base64url SHA-256 of their signing certificate. "
            + "An iOS app's passkeys carry the `https://` origin of its associated domain.")
    static let cookieHostPrefix = Setting(
        "LATCHKEY_COOKIE_HOST_PREFIX", .flag, default: "false",
        meaning: "Name the cookies of Directus's `cookie` and `session` modes `__Host-directus_refresh_token` and "
            + "`__Host-directus_session_token` (`Secure`, `Path=/`, no `Domain`), so no other subdomain of your domain can "
            + "plant one (cookie tossing); only those names are read. Needs an `https` public URL. Off by default because "
            + "code that reads Directus's cookie names itself (a resource server reading `directus_session_token`) must "
            + "change with it.",
        advice: ProductionAdvice(
            "`true` once nothing else reads the cookies by Directus's names (docs/deploy.md, \"Cookies and subdomains\")",
            when: { $0.publicURL.scheme == "https" && !$0.cookieHostPrefix }))

    // MARK: Rate limits

    static let resetIPLimit = Setting(
        "LATCHKEY_RESET_IP_LIMIT", .rateWindow, default: "20/600",
        meaning: "Link requests and password resets (`/auth/password/request` and `/auth/password/reset`) one client IP "
            + "may make per window; the same window, counted apart, bounds the uses of address change links "
            + "(`/users/email/confirm` and `/users/email/undo`).")
    static let resetValidateIPLimit = Setting(
        "LATCHKEY_RESET_VALIDATE_IP_LIMIT", .rateWindow, default: "100/600",
        meaning: "Link checks (`/auth/password/validate`, made each time a reset link is opened) one client IP may make "
            + "per window, counted apart from `LATCHKEY_RESET_IP_LIMIT`, so opening a link again and again never uses up "
            + "the reset itself.")
    static let loginIPLimit = Setting(
        "LATCHKEY_LOGIN_IP_LIMIT", .rateWindow, default: "100/60",
        meaning: "Sign-in attempts, right or wrong, one client IP may make per window (`/auth/login` and the sign-in "
            + "form); failures are limited further: `LATCHKEY_LOGIN_FAILURE_LIMIT` per account and IP and 50 per IP in 15 minutes.")
    static let loginFailureLimit = Setting(
        "LATCHKEY_LOGIN_FAILURE_LIMIT", .rateWindow, default: "10/900",
        meaning: "Failed sign-ins for one account from one client IP per window, the hard limit on guessing; beyond it "
            + "`429` until the window has room again (at least a minute, or the window when shorter). Attempts while "
            + "waiting are refused without being counted and never lengthen the wait.")
    static let maxSessionsPerAccount = Setting(
        "LATCHKEY_MAX_SESSIONS_PER_ACCOUNT", .integer(1...100_000, .count), default: "100",
        meaning: "Live logins (refresh-token families) one account may hold; a new login beyond it ends the "
            + "least recently used one.")
    static let maxBrowserSessionsPerAccount = Setting(
        "LATCHKEY_MAX_BROWSER_SESSIONS_PER_ACCOUNT", .integer(1...10_000, .count), default: "32",
        meaning: "Live browser sessions (the sign-in pages' `latchkey_session`) one account may hold; signing in once "
            + "more ends the one started longest ago, in the transaction that starts the new one.")
    static let redisURL = Setting(
        "LATCHKEY_REDIS_URL", .url(schemes: ["redis", "rediss"]), default: .unset("limits in this process's memory"),
        meaning: "Keep rate limits in Redis so every instance shares them: `redis://[[user]:password@]host[:port][/db]`, "
            + "or `rediss://…` for TLS (1.2 or 1.3, the certificate verified for the host); `user` is a Redis 6 ACL user. "
            + "The password is never logged.")
    static let redisCAFile = Setting(
        "LATCHKEY_REDIS_CA_FILE", .path("a PEM file"), default: .unset("the system's CAs"),
        meaning: "The CAs to trust for the certificate of a `rediss://` Redis (a managed Redis's own CA, say).")
    static let rateLimitFailOpen = Setting(
        "LATCHKEY_RATE_LIMIT_FAIL_OPEN", .flag, default: "false",
        meaning: "When Redis is unreachable, `false` answers rate-limited routes `503` with `Retry-After: 5` and `true` "
            + "lets requests through; both are logged (`rate_limiter_unavailable`) and counted "
            + "(`latchkey_rate_limiter_unavailable_total`).")

    // MARK: Connections

    static let maxBodyBytes = Setting(
        "LATCHKEY_MAX_BODY_BYTES", .integer(1024...10_485_760, .bytes), default: "65536",
        meaning: "The largest request body; a larger one gets `413`.")
    static let connectionTimeout = Setting(
        "LATCHKEY_CONNECTION_TIMEOUT", .integer(1...3600, .seconds), default: "30",
        meaning: "How long an idle connection stays open.")
    static let requestTimeout = Setting(
        "LATCHKEY_REQUEST_TIMEOUT", .integer(1...3600, .seconds), default: "10",
        meaning: "How long a request may take to arrive whole, head and body, however steadily it trickles in; "
            + "a connection still sending one after this is closed.")
    static let maxConnections = Setting(
        "LATCHKEY_MAX_CONNECTIONS", .integer(1...1_000_000, .count), default: "10000",
        meaning: "The most connections open at once. At the limit a new connection takes the place of the one that "
            + "has sent nothing (no complete request, or nothing since its last response) for longest, which is "
            + "closed; when every open one is sending or awaiting an answer, the new one is closed on accept. Each "
            + "idle one costs about 13 KiB; one part-way through a body also the body's share of "
            + "`LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT` (docs/operations.md, \"What a connection costs\").")
    static let perIPConnections = Setting(
        "LATCHKEY_PER_IP_CONNECTIONS", .integer(1...100_000, .count), default: "32",
        meaning: "Concurrent connections per client IP, or per IPv6 /64 (the addresses in `LATCHKEY_TRUSTED_PROXIES` "
            + "are exempt: every client's connection comes from them).")
    static let trustedProxies = Setting(
        "LATCHKEY_TRUSTED_PROXIES", .list(.ipAddress),
        meaning: "The proxies whose `X-Forwarded-For` is believed.")

    // MARK: HTTP: bodies in flight, IPv6 prefixes

    static let maxBodyBytesInFlight = Setting(
        "LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT", .integer(1024...17_179_869_184, .bytes, atLeast: maxBodyBytes.name),
        default: .derived("1 KiB per `LATCHKEY_MAX_CONNECTIONS`, at least 4 × `LATCHKEY_MAX_BODY_BYTES` (about 10 MB by default)"),
        meaning: "Request-body bytes the server holds at once across every connection: reserved from `Content-Length` "
            + "when a request's head arrives (as they arrive for a chunked body) and given back when the request ends "
            + "or its connection closes. A body that does not fit is answered `503` with `Retry-After` and its "
            + "connection closed, so connections that send bodies slowly cannot make the server hold more. The last "
            + "eighth is kept for bodies of at most 4 KiB (every sign-in, refresh and reset body is one): a flood of "
            + "large half-sent bodies makes large bodies wait, never those.")
    static let perIPv6Slash56Connections = Setting(
        "LATCHKEY_PER_IPV6_56_CONNECTIONS", .integer(1...1_000_000, .count, atLeast: perIPConnections.name),
        default: .derived("4 × `LATCHKEY_PER_IP_CONNECTIONS`"),
        meaning: "Concurrent connections from one IPv6 /56 (a subscriber often holds one), besides the limit per /64 "
            + "that `LATCHKEY_PER_IP_CONNECTIONS` sets; the trusted proxies are exempt.")
    static let perIPv6Slash48Connections = Setting(
        "LATCHKEY_PER_IPV6_48_CONNECTIONS", .integer(1...1_000_000, .count, atLeast: perIPv6Slash56Connections.name),
        default: .derived("16 × `LATCHKEY_PER_IP_CONNECTIONS`"),
        meaning: "Concurrent connections from one IPv6 /48 (a site's whole allocation); the trusted proxies are exempt.")

    // MARK: Passwords, monitoring, logs

    static let argon2Memory = Setting(
        "LATCHKEY_ARGON2_MEMORY_KIB", .integer(19_456...Argon2Parameters.maximumMemoryKiB, .kibibytes), default: "19456",
        meaning: "Argon2id memory per new password hash.")
    static let argon2Iterations = Setting(
        "LATCHKEY_ARGON2_ITERATIONS", .integer(2...Argon2Parameters.maximumIterations, .count), default: "2",
        meaning: "Argon2id passes per new password hash.")
    static let argon2Parallelism = Setting(
        "LATCHKEY_ARGON2_PARALLELISM", .integer(1...16, .count), default: "1",
        meaning: "Argon2id lanes per new password hash.")
    static let workerThreads = Setting(
        "LATCHKEY_WORKER_THREADS", .integer(1...1024, .count), default: .derived("4 per core the process may use, at least 16"),
        meaning: "Threads that run the request handlers (all but password hashing); a complete request waits for one "
            + "with its connection suspended, and past 1024 waiting the answer is `503` with `Retry-After`. More than one "
            + "per core, because a handler waits for the database part of its time (and on SQLite, writes that meet "
            + "share a commit: no more of them than there are threads); raise it when the database is on another machine.")
    static let hashConcurrency = Setting(
        "LATCHKEY_HASH_CONCURRENCY", .integer(1...256, .count), default: .derived("the cores the process may use"),
        meaning: "Password hashes computed at once (sign-in, the sign-in form, reset), on threads of their own at low "
            + "priority; more wait in a bounded queue, and one that waited 3 s is answered `503` with `Retry-After`. "
            + "Memory for hashing stays under this times `LATCHKEY_ARGON2_MEMORY_KIB`.")
    static let passwordMinimumScore = Setting(
        "LATCHKEY_PASSWORD_MIN_SCORE", .integer(0...4, .count), default: "3",
        meaning: "The zxcvbn score a new password must reach.")
    static let abuseWarningThreshold = Setting(
        "LATCHKEY_ABUSE_WARNING_THRESHOLD", .integer(1...1_000_000, .count), default: "100",
        meaning: "Reset requests per 10 minutes from one IP or to one email domain before a warning is logged.")
    static let resetInboxLimit = Setting(
        "LATCHKEY_RESET_INBOX_LIMIT", .integer(1...10_000_000, .count), default: "100000",
        meaning: "Reset requests accepted and not yet processed (on every instance sharing the database) beyond which "
            + "`POST /auth/password/request` is answered `503` with `Retry-After`, for every address alike.")
    static let metricsAllow = Setting(
        "LATCHKEY_METRICS_ALLOW", .list(.ipAddress), default: "127.0.0.1,::1",
        meaning: "The client IPs that may read `/metrics`; others get `404`, since the mail counters would reveal "
            + "which addresses have accounts.")
    static let logLevel = Setting(
        "LATCHKEY_LOG_LEVEL", .choice(["debug", "info", "warning", "error"]), default: "info",
        meaning: "The least severe level logged.")

    // MARK: Client commands

    static let issuer = Setting(
        "LATCHKEY_ISSUER", .url(schemes: ["http", "https"]), scope: .clientCommands,
        meaning: "Client commands only (`login`, `token`, `logout`, `reset`): the server's public URL when `--issuer` "
            + "is not given.")
}

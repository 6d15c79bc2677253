package import Foundation
package import LatchkeyCrypto

/// The password-reset flow: request a link by email, check a link, set a new password.
///
/// Each route of the flow is one call here, which holds every limit that applies to it:
/// every call counts against the client's budget (``Settings/clientPolicy``; beyond it
/// `rate_limited` with a retry-after that doubles while the client keeps trying), so token
/// guesses are bounded too.
///
/// Promises:
/// - ``requestReset(email:resetURL:locale:acceptLanguage:clientIP:)`` behaves identically
///   for known, unknown, disabled and per-account-limited addresses: it validates, counts
///   the request against the address's limit and queues it; the account lookup, token and
///   mail happen later in ``processQueuedRequests()`` (a background worker), off the
///   response path.
/// - Tokens are 32 bytes from the OS CSPRNG; only their SHA-256 is stored; a new token
///   supersedes the account's older ones; consuming one is a single atomic statement.
/// - Every failure of a token says the same thing (`invalid_token`), whatever the cause.
package final class PasswordRecoveryService: Sendable {
    /// What a client sent to `POST /auth/password/request`, already syntactically checked.
    package struct ResetRequest: Sendable {
        /// The normalised address.
        package let email: EmailAddress
        /// The link base to use instead of the default reset page (already allow-listed).
        package let resetURL: String?
        /// The explicit `locale` field, if any.
        package let locale: String?
        /// The `Accept-Language` header, if any.
        package let acceptLanguage: String?
    }

    /// The answer to a successful validation.
    package struct TokenStatus: Sendable, Equatable {
        /// The account's address with most of the local part hidden, e.g. `j***@example.com`.
        package let emailHint: String
        /// When the link stops working.
        package let expiresAt: Date
    }

    /// The settings the flow needs.
    package struct Settings: Sendable {
        /// Token lifetime in seconds.
        package var tokenTTL: TimeInterval
        /// The default link base (the web reset page).
        package var defaultResetURL: String
        /// Allowed `reset_url` values.
        package var resetURLAllowList: [String]
        /// The key for hashing addresses into rate-limit keys and logs.
        package var addressKey: Redacted<Data>
        /// Every call of the flow from one client (an IPv4 address or an IPv6 /64) counts here.
        package var clientPolicy: RateLimitPolicy
        /// Reset requests from one IP or for one email domain in ten minutes that trigger an
        /// abuse warning in the log.
        package var abuseWarningThreshold: Int

        /// Creates settings; the client budget defaults to 20 calls per 10 minutes, the abuse
        /// warning to 50 requests.
        package init(
            tokenTTL: TimeInterval, defaultResetURL: String, resetURLAllowList: [String], addressKey: Redacted<Data>,
            clientPolicy: RateLimitPolicy = Self.defaultClientPolicy, abuseWarningThreshold: Int = 100
        ) {
            self.tokenTTL = tokenTTL
            self.defaultResetURL = defaultResetURL
            self.resetURLAllowList = resetURLAllowList
            self.addressKey = addressKey
            self.clientPolicy = clientPolicy
            self.abuseWarningThreshold = abuseWarningThreshold
        }

        /// 20 calls per 10 minutes; then blocked for at least a minute, doubling up to an hour.
        package static let defaultClientPolicy = clientPolicy(.init(limit: 20, seconds: 600))

        /// The client budget for `window`: blocked for at least a minute beyond it, doubling
        /// on each further attempt up to an hour.
        package static func clientPolicy(_ window: RateLimitPolicy.Window) -> RateLimitPolicy {
            RateLimitPolicy(windows: [window], basePenalty: 60, maximumPenalty: 3600)
        }
    }

    /// At most one mail per minute and five per hour to one address.
    package static let perAddressPolicy = RateLimitPolicy(windows: [
        .init(limit: 1, seconds: 60), .init(limit: 5, seconds: 3600),
    ])

    private let store: any Store
    private let clock: any WallClock
    private let limiter: any RateLimiter
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let templates: MailTemplates
    private let settings: Settings
    private let allowList: ResetURLAllowList
    private let queue: ResetRequestQueue
    private let abuse: AbuseMonitor
    private let logger: Logger
    private let metrics: ServerMetrics

    /// Creates the service from its dependencies.
    package init(
        store: any Store, clock: any WallClock, limiter: any RateLimiter, hasher: PasswordHasher,
        policy: PasswordPolicy, templates: MailTemplates, settings: Settings, logger: Logger,
        metrics: ServerMetrics, queueCapacity: Int = 10_000
    ) {
        self.store = store
        self.clock = clock
        self.limiter = limiter
        self.hasher = hasher
        self.policy = policy
        self.templates = templates
        self.settings = settings
        self.allowList = ResetURLAllowList(settings.resetURLAllowList)
        self.queue = ResetRequestQueue(capacity: queueCapacity)
        self.abuse = AbuseMonitor(threshold: settings.abuseWarningThreshold)
        self.logger = logger
        self.metrics = metrics
    }

    /// `POST /auth/password/request`: counts the call against the client's budget, checks
    /// the fields (`invalid_email`, `reset_url_not_allowed`; nothing is looked up), notes
    /// floods from one IP or email domain in the log, counts the request against the
    /// address's limit and, within it, queues it for ``processQueuedRequests()``. Nothing it
    /// does or throws depends on the account, so every address gets the same answer: beyond
    /// the field checks it throws only `rate_limited` (the client's budget) and
    /// `rate_limiter_unavailable` (the shared limiter cannot be reached).
    package func requestReset(email: String, resetURL: String?, locale: String?, acceptLanguage: String?, clientIP: String) throws {
        try admit(clientIP)
        let request = try parseRequest(email: email, resetURL: resetURL, locale: locale, acceptLanguage: acceptLanguage)
        let key = addressKey(request.email)
        let now = clock.now()
        if abuse.record("ip:" + IPAddress.rateLimitKey(clientIP), now: now) {
            logger.warning("reset_abuse_suspected", ["source": "ip", "ip": .string(IPAddress.truncatedForLogs(clientIP))])
        }
        if abuse.record("domain:" + request.email.domain, now: now) {
            logger.warning("reset_abuse_suspected", ["source": "email_domain", "domain": .string(request.email.domain)])
        }
        logger.info("reset_requested", ["address": .string(key), "ip": .string(IPAddress.truncatedForLogs(clientIP))])
        metrics.resetRequests.increment()
        let decision = try limiter.consume("reset-address:" + key, policy: Self.perAddressPolicy, now: now)
        guard decision == .allowed else {
            logger.info("reset_request_limited", ["address": .string(key)])
            return
        }
        if !queue.push(request) {
            logger.warning("reset_queue_full", ["address": .string(key)])
        }
    }

    /// Counts a call of the flow against the client's budget; throws `rate_limited` with the
    /// seconds to wait beyond it.
    private func admit(_ clientIP: String) throws {
        let decision = try limiter.consume(
            "reset-ip:" + IPAddress.rateLimitKey(clientIP), policy: settings.clientPolicy, now: clock.now())
        if case .limited(let retryAfter) = decision {
            logger.info("reset_ip_limited", ["ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter)])
            throw LatchkeyError(.rateLimited, "Too many attempts. Please wait a moment and try again.", retryAfter: retryAfter)
        }
    }

    /// The fields of a reset request, checked; throws `invalid_email` / `reset_url_not_allowed`.
    private func parseRequest(email: String, resetURL: String?, locale: String?, acceptLanguage: String?) throws -> ResetRequest {
        let address = try EmailAddress(email)
        if let resetURL, !allowList.allows(resetURL) {
            throw LatchkeyError(.resetURLNotAllowed, "This reset link address is not allowed.")
        }
        let cleanLocale = locale.map { String($0.prefix(35)) }
        let cleanLanguage = acceptLanguage.map { String($0.prefix(256)) }
        return ResetRequest(email: address, resetURL: resetURL, locale: cleanLocale, acceptLanguage: cleanLanguage)
    }

    /// Issues tokens and queues mail for every request waiting in the queue; returns how many
    /// were processed. Called by the background worker, or directly by tests.
    @discardableResult
    package func processQueuedRequests() -> Int {
        var processed = 0
        while let request = queue.pop() {
            processed += 1
            do {
                try issueToken(for: request)
            } catch {
                logger.error("reset_issue_failed", ["address": .string(addressKey(request.email)), "error": .string("\(error)")])
            }
        }
        return processed
    }

    /// Blocks until a request is queued or `timeout` passes; true when one is waiting.
    package func waitForQueuedRequest(timeout: TimeInterval) -> Bool {
        queue.waitForItem(timeout: timeout)
    }

    /// Wakes every thread waiting in ``waitForQueuedRequest(timeout:)``.
    package func wakeWaiters() {
        queue.wakeAll()
    }

    private func issueToken(for request: ResetRequest) throws {
        let key = addressKey(request.email)
        guard let account = try store.account(email: request.email.normalized), account.status == .active else {
            logger.info("reset_request_unmatched", ["address": .string(key)])
            return
        }
        let now = clock.now()
        let token = SecureRandom.token()
        let record = ResetTokenRecord(
            digest: OpaqueToken.digest(token), accountID: account.id, createdAt: now,
            expiresAt: now.addingTimeInterval(settings.tokenTTL))
        let link = Redacted((request.resetURL ?? settings.defaultResetURL) + "#token=" + token.exposed)
        let language = SupportedLanguage.negotiate(explicit: request.locale, acceptLanguage: request.acceptLanguage, accountLocale: account.locale)
        let mail = try templates.render(
            .passwordReset(link: link, validMinutes: Int(settings.tokenTTL / 60)),
            to: account.email, language: language, id: UUID().uuidString.lowercased())
        try store.issueResetToken(record, mail: mail, now: now)
        logger.info("reset_token_issued", ["address": .string(key)])
    }

    /// `POST /auth/password/validate`: tells whether `token` can still be used, without using
    /// it. Counts against the client's budget (`rate_limited` beyond it); throws
    /// `invalid_token` (one message for every cause) when the token is not usable.
    package func validate(token: Redacted<String>, clientIP: String) throws -> TokenStatus {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token),
              let (record, account) = try store.usableResetToken(digest: digest, now: clock.now()) else {
            throw Self.invalidToken
        }
        let hint = (try? EmailAddress(account.email).hint) ?? "***"
        return TokenStatus(emailHint: hint, expiresAt: record.expiresAt)
    }

    /// `POST /auth/password/reset`: sets a new password with a usable token. Counts against
    /// the client's budget (`rate_limited` beyond it); checks the token, then the password
    /// policy (a rejected password leaves the token usable), then consumes the token
    /// atomically, stores the new Argon2id hash, revokes every session and queues a notice to
    /// the account.
    package func resetPassword(token: Redacted<String>, newPassword: Redacted<String>, clientIP: String) throws {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token),
              let (_, account) = try store.usableResetToken(digest: digest, now: clock.now()) else {
            logger.info("reset_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        let email = try EmailAddress(account.email)
        let normalized = try policy.check(newPassword, email: email)
        let hash = try hasher.hash(normalized)
        let changed = try store.completeReset(digest: digest, newPasswordHash: hash, now: clock.now()) { account in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: nil, accountLocale: account.locale)
            return try templates.render(
                .passwordChanged(resetPageURL: settings.defaultResetURL),
                to: account.email, language: language, id: UUID().uuidString.lowercased())
        }
        guard let changed else {
            logger.info("reset_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        logger.info("password_reset_completed", ["address": .string(addressKey(email)), "credential_version": .int(changed.credentialVersion)])
    }

    /// The keyed hash of an address used in rate-limit keys and logs (never the address).
    package func addressKey(_ email: EmailAddress) -> String {
        let mac = HMACSHA256.authenticationCode(for: Data(email.normalized.utf8), key: settings.addressKey.exposed)
        return Base64URL.encode(mac.prefix(16))
    }

    static let invalidToken = LatchkeyError(.invalidToken, "The link is no longer valid. Please request a new one.")
}

package import Foundation
package import LatchkeyCrypto

/// Sign-up (`POST /users/register`) and the confirmation of its address
/// (`POST /users/register/verify-email`).
///
/// Promises:
/// - ``register(email:password:verificationURL:locale:acceptLanguage:clientIP:)`` does the same
///   work for every well-formed request — the password hashed, one insert into the durable
///   inbox — before its answer, which is the same for an address with an account, one without
///   and one whose mail limit is reached. Whether the address has an account is looked up only
///   later, by ``processPendingRequests()`` (a background job): a new address gets a mail with a
///   confirmation link, an address with an account a mail saying so, with a way to reset its
///   password. An accepted request survives a crash and yields at most one mail.
/// - A registration becomes an account only when its link is used, once, within
///   ``Settings/tokenTTL``; until then nothing can sign in with it (a sign-in gets the answer a
///   wrong password gets). The password that counts is the one chosen with the link that was
///   used, so someone who signs up with another person's address first gains nothing.
/// - Tokens are 32 bytes from the OS CSPRNG; only their SHA-256 is stored; a new registration of
///   an address supersedes its earlier ones.
/// - Limits: every call counts against the client's budget (`rate_limited` beyond it); at most
///   one mail a minute and five an hour to one address (silently); the same password policy as
///   a reset.
package final class RegistrationService: Sendable {
    /// The settings sign-up needs.
    package struct Settings: Sendable {
        /// Whether anyone may sign up (`LATCHKEY_REGISTRATION=open`); otherwise `forbidden`.
        package var isOpen: Bool
        /// How long a confirmation link works.
        package var tokenTTL: TimeInterval
        /// The default link base: the server's confirmation page.
        package var defaultVerificationURL: String
        /// The reset page, which the "you already have an account" mail points to.
        package var resetPageURL: String
        /// Allowed `verification_url` values (the same list as `reset_url`'s).
        package var verificationURLAllowList: [String]
        /// The key for hashing addresses into rate-limit keys and logs.
        package var addressKey: Redacted<Data>
        /// Every sign-up and confirmation from one client counts here.
        package var clientPolicy: RateLimitPolicy

        /// Creates settings; links work for 24 hours and the client budget is the reset flow's.
        package init(
            isOpen: Bool, tokenTTL: TimeInterval = 24 * 3600, defaultVerificationURL: String, resetPageURL: String,
            verificationURLAllowList: [String], addressKey: Redacted<Data>,
            clientPolicy: RateLimitPolicy = PasswordRecoveryService.Settings.defaultClientPolicy
        ) {
            self.isOpen = isOpen
            self.tokenTTL = tokenTTL
            self.defaultVerificationURL = defaultVerificationURL
            self.resetPageURL = resetPageURL
            self.verificationURLAllowList = verificationURLAllowList
            self.addressKey = addressKey
            self.clientPolicy = clientPolicy
        }
    }

    /// How old a request must be before the job processes it: its answer has long been sent.
    package static let processingDelay: TimeInterval = 1
    /// How many requests one run of the job takes at most.
    package static let batchSize = 500

    private let store: any RegistrationStore
    private let clock: any WallClock
    private let limiter: any RateLimiter
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let templates: MailTemplates
    private let settings: Settings
    private let allowList: ResetURLAllowList
    private let addressKey: AddressKey
    private let logger: Logger

    /// Creates the service from its dependencies.
    package init(
        store: any RegistrationStore, clock: any WallClock, limiter: any RateLimiter, hasher: PasswordHasher,
        policy: PasswordPolicy, templates: MailTemplates, settings: Settings, logger: Logger
    ) {
        self.store = store
        self.clock = clock
        self.limiter = limiter
        self.hasher = hasher
        self.policy = policy
        self.templates = templates
        self.settings = settings
        allowList = ResetURLAllowList(settings.verificationURLAllowList)
        addressKey = AddressKey(settings.addressKey)
        self.logger = logger
    }

    /// `POST /users/register`: checks the request and stores it for later. Throws `forbidden`
    /// when sign-up is closed; `rate_limited` beyond the client's budget; `invalid_email`,
    /// `reset_url_not_allowed` (for `verificationURL`) or `weak_password` — all decided before
    /// anything is looked up. Otherwise returns, the same way for every address.
    package func register(
        email: String, password: Redacted<String>, verificationURL: String?, locale: String?, acceptLanguage: String?,
        clientIP: String
    ) throws {
        guard settings.isOpen else { throw LatchkeyError(.forbidden, "Sign-up is closed on this server.") }
        try admit(clientIP)
        let address = try EmailAddress(email)
        if let verificationURL, !allowList.allows(verificationURL) {
            throw LatchkeyError(.resetURLNotAllowed, "This verification link address is not allowed.")
        }
        let hash = try hasher.hash(try policy.check(password, email: address))
        let now = clock.now()
        let key = addressKey.hash(address.normalized)
        logger.info("registration_requested", ["address": .string(key), "ip": .string(IPAddress.truncatedForLogs(clientIP))])
        guard try limiter.consume("register-address:" + key, policy: PasswordRecoveryService.perAddressPolicy, now: now) == .allowed
        else {
            logger.info("registration_request_limited", ["address": .string(key)])
            return
        }
        try store.acceptRegistrationRequest(PendingRegistrationRequest(
            email: address.normalized, passwordHash: hash, verificationURL: verificationURL,
            locale: locale.map { String($0.prefix(35)) }, acceptLanguage: SupportedLanguage.acceptLanguage(acceptLanguage),
            acceptedAt: now))
    }

    /// Processes the requests accepted at least ``processingDelay`` ago, at most ``batchSize``:
    /// each, in one transaction, is taken, its address looked up, and its mail queued. Returns
    /// how many were taken. Called by ``RegistrationRequestWorker``; tests call it directly.
    @discardableResult
    package func processPendingRequests() -> Int {
        let ids: [String]
        do {
            ids = try store.pendingRegistrationRequestIDs(
                acceptedBefore: clock.now().addingTimeInterval(-Self.processingDelay), limit: Self.batchSize)
        } catch {
            logger.error("registration_requests_unreadable", ["error": .string("\(error)")])
            return 0
        }
        var taken = 0
        for id in ids {
            do {
                if try store.processRegistrationRequest(id: id, now: clock.now(), handle: outcome(of:account:)) { taken += 1 }
            } catch {
                logger.error("registration_request_failed", ["error": .string("\(error)")])
            }
        }
        return taken
    }

    /// What `request` leads to, given the account of its address.
    private func outcome(of request: PendingRegistrationRequest, account: Account?) throws -> RegistrationOutcome {
        let key = addressKey.hash(request.email)
        let language = SupportedLanguage.negotiate(
            explicit: request.locale, acceptLanguage: request.acceptLanguage, accountLocale: account?.locale)
        if let account {
            logger.info("registration_request_existing_account", ["address": .string(key)])
            let mail = try templates.render(
                .accountExists(resetPageURL: settings.resetPageURL + "?lang=" + language.rawValue), to: account.email,
                language: language, id: SecureRandom.identifier())
            return .notify(mail)
        }
        let now = clock.now()
        let token = SecureRandom.token()
        let registration = PendingRegistration(
            digest: OpaqueToken.digest(token), email: request.email, passwordHash: request.passwordHash,
            locale: language.rawValue, createdAt: now,
            expiresAt: now.addingTimeInterval(settings.tokenTTL))
        let link = Redacted((request.verificationURL ?? settings.defaultVerificationURL) + "#token=" + token.exposed)
        let mail = try templates.render(
            .emailVerification(link: link, validHours: Int(settings.tokenTTL / 3600)), to: request.email, language: language,
            id: SecureRandom.identifier())
        logger.info("registration_token_issued", ["address": .string(key)])
        return .verify(registration, mail: mail)
    }

    /// `POST /users/register/verify-email`: uses the confirmation link's token and creates the
    /// account. Counts against the client's budget; throws `invalid_token` (one message for
    /// every cause) when the token is not usable or its address has an account meanwhile.
    @discardableResult
    package func verify(token: Redacted<String>, clientIP: String) throws -> Account {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token),
            let account = try store.completeRegistration(digest: digest, accountID: SecureRandom.identifier(), now: clock.now())
        else {
            logger.info("registration_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        logger.info("registration_completed", ["address": .string(addressKey.hash(account.email)), "account": .string(account.id)])
        return account
    }

    /// Counts a call against the client's budget; throws `rate_limited` beyond it.
    private func admit(_ clientIP: String) throws {
        let decision = try limiter.consume("register-ip:" + IPAddress.rateLimitKey(clientIP), policy: settings.clientPolicy, now: clock.now())
        if case .limited(let retryAfter) = decision {
            logger.info("registration_ip_limited", ["ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter)])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
    }

    static let invalidToken = LatchkeyError(.invalidToken, "The link is no longer valid. Please sign up again.")
}

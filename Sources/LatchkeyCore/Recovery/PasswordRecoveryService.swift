package import Foundation
package import LatchkeyCrypto
import Synchronization

/// The password-reset flow: request a link by email, check a link, set a new password.
///
/// Each route of the flow is one call here, which holds every limit that applies to it:
/// every call counts against a budget of the client's — requests and resets against
/// ``Settings/clientPolicy``, link checks against the larger ``Settings/validationPolicy``, so
/// a person who opens their link several times can still reset — beyond which it gets
/// `rate_limited` with a retry-after that lasts until the budget has room again (attempts
/// while waiting are refused uncounted and never lengthen it); token guesses are bounded by both.
///
/// Promises:
/// - ``requestReset(email:resetURL:locale:acceptLanguage:clientIP:)`` behaves identically
///   for known, unknown, disabled and per-account-limited addresses: it validates, counts
///   the request against the address's limit and stores it as a pending request — one
///   insert, the same for every address — before the answer. The account lookup, token and
///   mail happen later, in ``processPendingRequests()`` (a background job at a fixed cadence,
///   at low priority): a request becomes eligible once its response has been sent
///   (``release(_:)``), or, if its instance never released it (it stopped, it crashed), once
///   it is ``orphanAge`` old — on any instance. An accepted request survives SIGKILL and
///   restart and yields exactly one mail.
/// - Tokens are 32 bytes from the OS CSPRNG; only their SHA-256 is stored; a new token
///   supersedes the account's older ones; consuming one is a single atomic statement.
/// - Every failure of a token says the same thing (`invalid_token`), whatever the cause.
package final class PasswordRecoveryService: Sendable {
    /// What ``requestReset(email:resetURL:locale:acceptLanguage:clientIP:)`` stored: the
    /// pending request to ``release(_:)`` once the response is sent (nil when the address's
    /// limit dropped the request, silently), and the write that stores it.
    package struct Receipt: Sendable {
        /// The pending request's id.
        package let requestID: String?
        /// The request's insert: answer only once it has settled, `200` when it committed,
        /// its error (`storage_error`) when it failed. Settled already when nothing was stored.
        package let write: DeferredWrite
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
        /// Every request and reset from one client (an IPv4 address or an IPv6 /64) counts here.
        package var clientPolicy: RateLimitPolicy
        /// Every link check (``validate(token:clientIP:)``) from one client counts here, apart
        /// from ``clientPolicy``: a 256-bit token cannot be guessed, so opening a link again
        /// and again needs no tight limit, and must not use up the reset itself.
        package var validationPolicy: RateLimitPolicy
        /// Reset requests from one IP or for one email domain in ten minutes that trigger an
        /// abuse warning in the log.
        package var abuseWarningThreshold: Int
        /// The most requests the inbox holds (accepted, not yet processed, on every instance
        /// that shares the store): past it a request is answered `server_busy`, whatever its
        /// address, until the background job catches up.
        package var inboxLimit: Int

        /// Creates settings; the client budget defaults to 20 calls per 10 minutes, link checks
        /// to 100 per 10 minutes, the abuse warning to 100 requests, the inbox to
        /// ``defaultInboxLimit`` requests.
        package init(
            tokenTTL: TimeInterval, defaultResetURL: String, resetURLAllowList: [String], addressKey: Redacted<Data>,
            clientPolicy: RateLimitPolicy = Self.defaultClientPolicy,
            validationPolicy: RateLimitPolicy = Self.defaultValidationPolicy, abuseWarningThreshold: Int = 100,
            inboxLimit: Int = Self.defaultInboxLimit
        ) {
            self.tokenTTL = tokenTTL
            self.defaultResetURL = defaultResetURL
            self.resetURLAllowList = resetURLAllowList
            self.addressKey = addressKey
            self.clientPolicy = clientPolicy
            self.validationPolicy = validationPolicy
            self.abuseWarningThreshold = abuseWarningThreshold
            self.inboxLimit = inboxLimit
        }

        /// 100 000 pending requests: some 20 MB of rows, and half a minute of the background
        /// job's work on one core.
        package static let defaultInboxLimit = 100_000

        /// 20 calls per 10 minutes; then blocked until the window has room, at least a minute.
        package static let defaultClientPolicy = clientPolicy(.init(limit: 20, seconds: 600))

        /// 100 link checks per 10 minutes; then blocked as ``defaultClientPolicy``.
        package static let defaultValidationPolicy = clientPolicy(.init(limit: 100, seconds: 600))

        /// The client budget for `window`: beyond it blocked until the window has room again,
        /// at least a minute (or the window, when shorter); attempts while blocked never
        /// lengthen the block.
        package static func clientPolicy(_ window: RateLimitPolicy.Window) -> RateLimitPolicy {
            RateLimitPolicy(windows: [window], basePenalty: min(60, window.seconds))
        }
    }

    /// At most one mail per minute and five per hour to one address — for resets, from one
    /// requesting network (an IPv4 address or an IPv6 /64), so requests from elsewhere never
    /// spend the owner's.
    package static let perAddressPolicy = RateLimitPolicy(windows: [
        .init(limit: 1, seconds: 60), .init(limit: 5, seconds: 3600),
    ])

    /// The reset requests one address accepts from every network together, to keep its inbox
    /// from being flooded: three a minute, ten an hour.
    package static let addressInboxPolicy = RateLimitPolicy(windows: [
        .init(limit: 3, seconds: 60), .init(limit: 10, seconds: 3600),
    ])

    /// Past ``addressInboxPolicy``, what one wider network (an IPv4 /24, an IPv6 /48) may still
    /// ask for the address: one an hour, three a day. Others spending the inbox cap leave the
    /// owner this slow lane, and a flood needs one such network per mail.
    package static let beyondInboxPolicy = RateLimitPolicy(windows: [
        .init(limit: 1, seconds: 3600), .init(limit: 3, seconds: 86_400),
    ])

    private let store: any Store
    private let clock: any WallClock
    private let limiter: any RateLimiter
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let templates: MailTemplates
    private let settings: Settings
    private let allowList: ResetURLAllowList
    /// Ids of pending requests whose responses were sent, waiting for the next batch.
    private let released = Mutex<[String]>([])
    /// ``Settings/addressKey``, prepared once.
    private let preparedAddressKey: AddressKey
    /// The pending requests the background job last counted in the store.
    private let countedInInbox = Atomic<Int>(0)
    /// The requests this instance stored since that count began.
    private let acceptedSinceCount = Atomic<Int>(0)
    /// The requests this instance has given room in the inbox and not yet stored (or dropped).
    private let enteringInbox = Atomic<Int>(0)
    private let abuse: AbuseMonitor
    private let logger: Logger
    private let metrics: ServerMetrics

    /// Creates the service from its dependencies.
    package init(
        store: any Store, clock: any WallClock, limiter: any RateLimiter, hasher: PasswordHasher,
        policy: PasswordPolicy, templates: MailTemplates, settings: Settings, logger: Logger,
        metrics: ServerMetrics
    ) {
        self.store = store
        self.clock = clock
        self.limiter = limiter
        self.hasher = hasher
        self.policy = policy
        self.templates = templates
        self.settings = settings
        self.allowList = ResetURLAllowList(settings.resetURLAllowList)
        self.preparedAddressKey = AddressKey(settings.addressKey)
        self.abuse = AbuseMonitor(threshold: settings.abuseWarningThreshold)
        self.logger = logger
        self.metrics = metrics
    }

    /// `POST /auth/password/request`: counts the call against the client's budget, checks
    /// the fields (`invalid_email`, `reset_url_not_allowed`; nothing is looked up), notes
    /// floods from one IP or email domain in the log, counts the request against the
    /// address's limit and, within it, hands it to the store as a pending request, whose
    /// insert may commit after this returns (``Receipt/write``). Nothing it does or throws
    /// depends on the account, so every address gets the same answer: beyond the field checks
    /// it throws only `rate_limited` (the client's budget), `rate_limiter_unavailable` (the
    /// shared limiter cannot be reached) and `server_busy` (the inbox is full); a failed insert
    /// settles the receipt's write with `storage_error`. Answer once that write has settled,
    /// and pass the receipt to ``release(_:)`` once the answer has been sent.
    package func requestReset(
        email: String, resetURL: String?, locale: String?, acceptLanguage: String?, clientIP: String
    ) throws -> Receipt {
        try admit(clientIP)
        let address = try EmailAddress(email)
        if let resetURL, !allowList.allows(resetURL) {
            throw LatchkeyError(.resetURLNotAllowed, "This reset link address is not allowed.")
        }
        try reserveInboxRoom()
        // The room is given back here, unless the insert is on its way: then when it settles.
        var handedOver = false
        defer {
            if !handedOver { enteringInbox.subtract(1, ordering: .relaxed) }
        }
        let key = addressKey(address)
        let now = clock.now()
        if abuse.record("ip:" + IPAddress.rateLimitKey(clientIP), now: now) {
            logger.warning("reset_abuse_suspected", ["source": "ip", "ip": .string(IPAddress.truncatedForLogs(clientIP))])
        }
        if abuse.record("domain:" + address.domain, now: now) {
            logger.warning("reset_abuse_suspected", ["source": "email_domain", "domain": .string(address.domain)])
        }
        logger.info("reset_requested", ["address": .string(key), "ip": .string(IPAddress.truncatedForLogs(clientIP))])
        metrics.resetRequests.increment()
        guard try addressAccepts(key, clientIP: clientIP, now: now) else {
            logger.info("reset_request_limited", ["address": .string(key)])
            return Receipt(requestID: nil, write: DeferredWrite(settled: .success(())))
        }
        let request = PendingResetRequest(
            email: address.normalized, resetURL: resetURL,
            locale: locale.map { String($0.prefix(35)) }, acceptLanguage: SupportedLanguage.acceptLanguage(acceptLanguage),
            acceptedAt: now)
        let write = store.acceptResetRequest(request)
        handedOver = true
        write.whenSettled { [self] outcome in
            if case .success = outcome { acceptedSinceCount.add(1, ordering: .relaxed) }
            enteringInbox.subtract(1, ordering: .relaxed)
        }
        return Receipt(requestID: request.id, write: write)
    }

    /// Whether the address of `key` takes a request from `clientIP` now, counted against its
    /// limits: the requesting network's own budget for the address (``perAddressPolicy``),
    /// then the address's inbox cap (``addressInboxPolicy``), past which only the slow lane of
    /// the requester's wider network (``beyondInboxPolicy``) lets a request through. Keyed by
    /// the address's hash alone, so it does the same for every address, account or not.
    private func addressAccepts(_ key: String, clientIP: String, now: Date) throws -> Bool {
        let network = "@" + IPAddress.rateLimitKey(clientIP)
        guard try limiter.consume("reset-address-net:" + key + network, policy: Self.perAddressPolicy, now: now) == .allowed else {
            return false
        }
        if try limiter.consume("reset-address:" + key, policy: Self.addressInboxPolicy, now: now) == .allowed { return true }
        let widerNetwork = "@" + IPAddress.widerNetworkKey(clientIP)
        return try limiter.consume("reset-address-beyond:" + key + widerNetwork, policy: Self.beyondInboxPolicy, now: now) == .allowed
    }

    /// Takes room in the inbox for one request (the caller gives it back, and counts the
    /// request as stored when it was), or throws `server_busy` (retry in 5 s) when there is
    /// none: the requests last counted in the store, those stored here since, and those on
    /// their way in here reach ``Settings/inboxLimit``. The room is taken by one atomic
    /// addition, so requests racing for the last place cannot all get it. Before the
    /// address's limit is counted, and the same for every address.
    private func reserveInboxRoom() throws {
        let entering = enteringInbox.add(1, ordering: .relaxed).newValue
        let pending = countedInInbox.load(ordering: .relaxed) + acceptedSinceCount.load(ordering: .relaxed) + entering
        guard pending > settings.inboxLimit else { return }
        enteringInbox.subtract(1, ordering: .relaxed)
        metrics.resetRequestsRefused.increment()
        throw LatchkeyError(.serverBusy, "Too many reset requests are waiting; try again in a few seconds.", retryAfter: 5)
    }

    /// Makes the request of `receipt` eligible for the next batch: call it once its answer has
    /// been sent, so no account work runs while the answer is on its way. Only a stored request
    /// is released: one whose insert has not settled yet is released when it commits, one
    /// whose insert failed never. Bounded: past ``releasedLimit`` waiting ids, a request waits
    /// to be processed as an orphan.
    package func release(_ receipt: Receipt) {
        guard let id = receipt.requestID else { return }
        receipt.write.whenSettled { [self] outcome in
            guard case .success = outcome else { return }
            released.withLock { ids in
                if ids.count < Self.releasedLimit { ids.append(id) }
            }
        }
    }

    /// The most released requests remembered between two batches.
    package static let releasedLimit = 10_000
    /// How old a pending request must be before any instance processes it unreleased.
    package static let orphanAge: TimeInterval = 10
    /// The most orphans one round takes (a round then counts the inbox).
    package static let orphanBatch = 1_000
    /// How many requests a round hands the store at once (``ResetTokenStore/processResetRequests(ids:now:issue:)``,
    /// which may commit them together), waiting for them before it hands over the next: so a
    /// round's writes come in turns with the requests' own, never as one long queue before them.
    package static let processingChunk = 64

    /// Counts a request or reset against the client's budget; throws `rate_limited` with the
    /// seconds to wait beyond it.
    private func admit(_ clientIP: String) throws {
        try admit(clientIP, key: "reset-ip:", policy: settings.clientPolicy)
    }

    /// Counts a call against the client's budget `policy` kept under `key`; throws
    /// `rate_limited` with the seconds to wait beyond it.
    private func admit(_ clientIP: String, key: String, policy: RateLimitPolicy) throws {
        let decision = try limiter.consume(key + IPAddress.rateLimitKey(clientIP), policy: policy, now: clock.now())
        if case .limited(let retryAfter) = decision {
            logger.info("reset_ip_limited", [
                "ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter),
                "budget": .string(String(key.dropLast())),
            ])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// Processes the released requests and the orphans: for each, in one transaction, takes
    /// it, looks up the active account of its address, and issues a token and queues the mail
    /// (or, without an account, only drops the request). One round takes what was released
    /// and at most ``orphanBatch`` orphans, then counts the inbox; further rounds follow while
    /// the last one found a full batch of orphans and took any request, and `continuing()`
    /// says so (the job passes "not stopping"): a backlog of orphans — requests past
    /// ``releasedLimit``, or a stopped instance's — drains in one run, and what is released
    /// meanwhile is taken between its batches. Returns how many were taken. Called by
    /// ``ResetRequestWorker``; tests call it directly.
    @discardableResult
    package func processPendingRequests(continuing: () -> Bool = { false }) -> Int {
        var processed = 0
        while true {
            let round = processRound()
            processed += round.processed
            countInbox()
            guard round.orphans == Self.orphanBatch, round.processed > 0, continuing() else { return processed }
        }
    }

    /// One round of ``processPendingRequests(continuing:)``: how many requests it took, and
    /// how many orphans it found.
    private func processRound() -> (processed: Int, orphans: Int) {
        let ready = released.withLock { ids in
            defer { ids.removeAll() }
            return ids
        }
        let orphans: [String]
        do {
            orphans = try store.pendingResetRequestIDs(acceptedBefore: clock.now().addingTimeInterval(-Self.orphanAge), limit: Self.orphanBatch)
        } catch {
            logger.error("reset_requests_unreadable", ["error": .string("\(error)")])
            orphans = []
        }
        let readyIDs = Set(ready)
        let ids = ready + orphans.filter({ !readyIDs.contains($0) })
        var processed = 0
        for start in stride(from: 0, to: ids.count, by: Self.processingChunk) {
            let chunk = Array(ids[start..<min(start + Self.processingChunk, ids.count)])
            let outcomes = store.processResetRequests(ids: chunk, now: clock.now()) { [self] request, account in
                try issueToken(for: request, account: account)
            }
            for (id, outcome) in zip(chunk, outcomes) {
                switch outcome {
                case .success(let taken):
                    if taken { processed += 1 }
                case .failure(let error):
                    logger.error("reset_issue_failed", ["request": .string(id), "error": .string("\(error)")])
                }
            }
        }
        return (processed, orphans.count)
    }

    /// Counts the pending requests in the store (no further than the limit) for
    /// ``reserveInboxRoom()``; logs `reset_inbox_full` when they reach it. A request counts as
    /// stored here only after its insert committed, so one stored while the count runs is
    /// counted twice (in the store and since the count began), never missed.
    private func countInbox() {
        acceptedSinceCount.store(0, ordering: .relaxed)
        do {
            let pending = try store.pendingResetRequestCount(upTo: settings.inboxLimit)
            countedInInbox.store(pending, ordering: .relaxed)
            if pending >= settings.inboxLimit {
                logger.warning("reset_inbox_full", ["pending": .int(pending), "limit": .int(settings.inboxLimit)])
            }
        } catch {
            logger.error("reset_requests_unreadable", ["error": .string("\(error)")])
        }
    }

    /// The token and mail for `request`, if its address has an active account.
    private func issueToken(for request: PendingResetRequest, account: Account?) throws -> IssuedResetToken? {
        guard let account else {
            // The address's key only if the line is written: no HMAC for a log level that is off.
            logger.info("reset_request_unmatched", ["address": .string(addressKey(normalized: request.email))])
            return nil
        }
        let key = addressKey(normalized: request.email)
        let now = clock.now()
        let token = SecureRandom.token()
        let record = ResetTokenRecord(
            digest: OpaqueToken.digest(token), accountID: account.id, createdAt: now,
            expiresAt: now.addingTimeInterval(settings.tokenTTL))
        let link = Redacted((request.resetURL ?? settings.defaultResetURL) + "#token=" + token.exposed)
        let language = SupportedLanguage.negotiate(explicit: request.locale, acceptLanguage: request.acceptLanguage, accountLocale: account.locale)
        let mail = try templates.render(
            .passwordReset(link: link, validMinutes: Int(settings.tokenTTL / 60)),
            to: account.email, language: language, id: SecureRandom.identifier())
        logger.info("reset_token_issued", ["address": .string(key)])
        return IssuedResetToken(token: record, mail: mail)
    }

    /// `POST /auth/password/validate`: tells whether `token` can still be used, without using
    /// it. Counts against the client's budget for link checks (`rate_limited` beyond it);
    /// throws `invalid_token` (one message for every cause) when the token is not usable.
    package func validate(token: Redacted<String>, clientIP: String) throws -> TokenStatus {
        try admit(clientIP, key: "reset-validate-ip:", policy: settings.validationPolicy)
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
    /// the account — saying when, in the language chosen as for the reset mail: the request's
    /// `locale`, the account's locale, then `acceptLanguage`.
    package func resetPassword(
        token: Redacted<String>, newPassword: Redacted<String>, locale: String? = nil, acceptLanguage: String? = nil,
        clientIP: String
    ) throws {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token),
              let (_, account) = try store.usableResetToken(digest: digest, now: clock.now()) else {
            logger.info("reset_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        let email = try EmailAddress(account.email)
        let normalized = try policy.check(newPassword, email: email)
        let hash = try hasher.hash(normalized)
        let now = clock.now()
        let changed = try store.completeReset(digest: digest, newPasswordHash: hash, now: now) { account in
            let language = SupportedLanguage.negotiate(explicit: locale, acceptLanguage: acceptLanguage, accountLocale: account.locale)
            return try templates.render(
                .passwordChanged(resetPageURL: settings.defaultResetURL + "?lang=" + language.rawValue, changedAt: now),
                to: account.email, language: language, id: SecureRandom.identifier())
        }
        guard let changed else {
            logger.info("reset_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        logger.info("password_reset_completed", ["address": .string(addressKey(email)), "credential_version": .int(changed.credentialVersion)])
    }

    /// The keyed hash of an address used in rate-limit keys and logs (never the address).
    package func addressKey(_ email: EmailAddress) -> String {
        addressKey(normalized: email.normalized)
    }

    private func addressKey(normalized: String) -> String {
        preparedAddressKey.hash(normalized)
    }

    static let invalidToken = LatchkeyError(.invalidToken, "The link is no longer valid. Please request a new one.")
}

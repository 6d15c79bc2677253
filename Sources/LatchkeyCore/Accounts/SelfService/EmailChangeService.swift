package import Foundation
package import LatchkeyCrypto

/// Changing the address of the signed-in person's account: asked for by the person, made only
/// when the new address confirms its link, undoable from the old address. One call per route.
///
/// Promises:
/// - A request passes ``Reauthentication`` and answers the same whether or not the new address
///   has an account: when it has none, the new address gets a confirmation link
///   (`PUBLIC_URL/confirm-email#token=…`, ``confirmationLifetime``); when it has one, it gets a
///   mail saying someone tried to move an account to it, and nothing can be confirmed. The
///   latest request supersedes earlier ones.
/// - Tokens are 32 CSPRNG bytes, only their SHA-256 stored, each consumed once by one
///   conditional update; every failure of a link is `invalid_token`, whatever the cause.
/// - Confirming changes the address atomically (no other account may have it) and mails the old
///   address an undo link (`PUBLIC_URL/undo-email-change#token=…`, ``undoLifetime``).
/// - Undoing gives the old address back (if no other account took it meanwhile), ends every
///   login and browser session, supersedes the reset tokens and undoes the later changes.
/// - Limits: requests per account (`rate_limited`), mails per target address (beyond it the
///   request is answered alike and nothing is sent), and link uses per client (`rate_limited`).
///   Logs name addresses only by their keyed hash.
package final class EmailChangeService: Sendable {
    /// How long a confirmation link works: 24 hours.
    package static let confirmationLifetime: TimeInterval = 24 * 3600
    /// How long an undo link works: 7 days.
    package static let undoLifetime: TimeInterval = 7 * 86_400
    /// At most 5 address change requests per account in an hour.
    package static let perAccountPolicy = RateLimitPolicy(windows: [.init(limit: 5, seconds: 3600)])

    private let store: any Store
    private let reauthentication: Reauthentication
    private let templates: MailTemplates
    private let limiter: any RateLimiter
    private let publicURL: String
    private let linkClientPolicy: RateLimitPolicy
    private let addressKey: AddressKey
    private let clock: any WallClock
    private let logger: Logger

    /// Creates the service from its dependencies: links go under `publicURL` (no trailing
    /// slash), each use of a link counts against the client's `linkClientPolicy`, and
    /// `addressKey` keys the hashes of addresses in limiter keys and logs.
    package init(
        store: any Store, reauthentication: Reauthentication, templates: MailTemplates, limiter: any RateLimiter,
        publicURL: String, linkClientPolicy: RateLimitPolicy, addressKey: Redacted<Data>, clock: any WallClock, logger: Logger
    ) {
        self.store = store
        self.reauthentication = reauthentication
        self.templates = templates
        self.limiter = limiter
        self.publicURL = publicURL
        self.linkClientPolicy = linkClientPolicy
        self.addressKey = AddressKey(addressKey)
        self.clock = clock
        self.logger = logger
    }

    /// Asks to change `owner`'s address to `newEmail`, from `clientIP`: checks the address
    /// (`invalid_email`; the account's own address is `invalid_request`), passes
    /// ``Reauthentication``, counts the request against the account's limit (`rate_limited`),
    /// and mails the new address in the account's language, else `acceptLanguage`'s.
    /// Returns the account, its address unchanged.
    package func requestChange(
        _ owner: AccountOwner, to newEmail: String, currentPassword: Redacted<String>?, code: Redacted<String>? = nil, clientIP: String,
        acceptLanguage: String?
    ) throws -> Account {
        let address = try EmailAddress(newEmail)
        let account = owner.account
        guard address.normalized != account.email else {
            throw LatchkeyError(.invalidRequest, "This is the account's address already.")
        }
        try reauthentication.confirm(
            account: account, assurance: owner.assurance, currentPassword: currentPassword, code: code, clientIP: clientIP)
        let now = clock.now()
        if case .limited(let retryAfter) = try limiter.consume("email-change-account:" + account.id, policy: Self.perAccountPolicy, now: now) {
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
        let target = addressKey.hash(address.normalized)
        // Mails to one address are limited as reset mails are, and as silently: the answer
        // stays the same.
        let mailDecision = try limiter.consume("email-change-address:" + target, policy: PasswordRecoveryService.perAddressPolicy, now: now)
        guard mailDecision == .allowed else {
            logger.info("email_change_limited", ["target": .string(target)])
            return account
        }
        let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: acceptLanguage, accountLocale: account.locale)
        let taken = try store.account(email: address.normalized) != nil
        let confirmation: EmailChangeToken?
        let mail: MailMessage
        if taken {
            confirmation = nil
            mail = try templates.render(.emailTaken, to: address.normalized, language: language, id: SecureRandom.identifier())
        } else {
            let token = SecureRandom.token()
            confirmation = EmailChangeToken(
                digest: OpaqueToken.digest(token), kind: .confirm, accountID: account.id, oldEmail: account.email,
                newEmail: address.normalized, createdAt: now, expiresAt: now.addingTimeInterval(Self.confirmationLifetime))
            mail = try templates.render(
                .emailConfirmation(
                    link: Redacted(publicURL + "/confirm-email#token=" + token.exposed), validHours: Int(Self.confirmationLifetime / 3600)),
                to: address.normalized, language: language, id: SecureRandom.identifier())
        }
        guard try store.requestEmailChange(login: owner.login, confirmation: confirmation, mail: mail, now: now) else {
            throw AccountSelfService.unauthenticated
        }
        logger.info("email_change_requested", [
            "address": .string(addressKey.hash(account.email)), "target": .string(target), "target_taken": .bool(taken),
        ])
        return account
    }

    /// Confirms an address change with the token of its link, from `clientIP` (no sign-in: the
    /// link may be opened on another device). Counts against the client's budget for links
    /// (`rate_limited`); throws `invalid_token` for every other failure. Mails the old address
    /// the undo link, in the account's language, else `acceptLanguage`'s.
    package func confirm(token: Redacted<String>, clientIP: String, acceptLanguage: String?) throws {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token) else { throw Self.invalidToken }
        let now = clock.now()
        let undoToken = SecureRandom.token()
        let changed = try store.confirmEmailChange(
            digest: digest, undo: (OpaqueToken.digest(undoToken), now.addingTimeInterval(Self.undoLifetime)), now: now
        ) { change, account in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: acceptLanguage, accountLocale: account.locale)
            return try templates.render(
                .emailChanged(
                    newAddressHint: (try? EmailAddress(change.newEmail).hint) ?? "***", changedAt: now,
                    undoLink: Redacted(publicURL + "/undo-email-change#token=" + undoToken.exposed),
                    validDays: Int(Self.undoLifetime / 86_400)),
                to: change.oldEmail, language: language, id: SecureRandom.identifier())
        }
        guard let changed else {
            logger.info("email_change_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        logger.info("email_change_confirmed", ["address": .string(addressKey.hash(changed.email))])
    }

    /// Undoes an address change with the token of the link mailed to the old address, from
    /// `clientIP`. Counts against the client's budget for links (`rate_limited`); throws
    /// `invalid_token` for every other failure, the old address taken by another account included.
    package func undo(token: Redacted<String>, clientIP: String) throws {
        try admit(clientIP)
        guard let digest = OpaqueToken.wellFormedDigest(token), let restored = try store.undoEmailChange(digest: digest, now: clock.now())
        else {
            logger.info("email_change_token_rejected", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidToken
        }
        logger.info("email_change_undone", [
            "address": .string(addressKey.hash(restored.email)), "credential_version": .int(restored.credentialVersion),
        ])
    }

    /// Counts a use of a link against the client's budget; throws `rate_limited` beyond it.
    private func admit(_ clientIP: String) throws {
        let key = "email-link-ip:" + IPAddress.rateLimitKey(clientIP)
        if case .limited(let retryAfter) = try limiter.consume(key, policy: linkClientPolicy, now: clock.now()) {
            logger.info("email_link_ip_limited", ["ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter)])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// The one answer to a link that cannot be used.
    static let invalidToken = LatchkeyError(.invalidToken, "The link is no longer valid.")
}

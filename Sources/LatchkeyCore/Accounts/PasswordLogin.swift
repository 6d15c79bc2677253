package import Foundation
package import LatchkeyCrypto

/// Checks an email and password, for every place a person signs in (`/auth/login` and the
/// `/oauth/authorize` login form).
///
/// Promises: one outcome, ``Outcome/rejected``, for an unknown account, a wrong password and
/// a disabled account, after the same password-hashing work on every path; failed attempts
/// count per client IP and per account (``failurePolicy``), and beyond it every attempt is
/// ``Outcome/limited(retryAfter:)`` with the wait doubling while blocked; a success rehashes
/// a password whose Argon2 parameters are below the configured ones.
package struct PasswordLogin: Sendable {
    /// What an attempt came to.
    package enum Outcome: Sendable, Equatable {
        /// The credentials are right and the account is active.
        case authenticated(Account)
        /// Unknown account, wrong password or disabled account — never which.
        case rejected
        /// Too many failures from this IP or for this account; try again after this many seconds.
        case limited(retryAfter: Int)
    }

    /// At most 10 failed logins in 15 minutes per client IP and per account.
    package static let failurePolicy = RateLimitPolicy(
        windows: [.init(limit: 10, seconds: 900)], basePenalty: 60, maximumPenalty: 3600)

    private let store: any AccountStore
    private let hasher: PasswordHasher
    private let limiter: any RateLimiter
    private let logger: Logger

    /// Creates it from its dependencies.
    package init(store: any AccountStore, hasher: PasswordHasher, limiter: any RateLimiter, logger: Logger) {
        self.store = store
        self.hasher = hasher
        self.limiter = limiter
        self.logger = logger
    }

    /// Checks `password` (already NFC-normalised) for the account `email` at `now`.
    package func attempt(email: String, password: Redacted<String>, clientIP: String, now: Date) throws -> Outcome {
        let normalizedEmail = (try? EmailAddress(email))?.normalized ?? email.lowercased()
        let failureKeys = [
            "login-ip:" + IPAddress.rateLimitKey(clientIP),
            "login-account:" + Base64URL.encode(SHA256.hash(Data(normalizedEmail.utf8))),
        ]
        for key in failureKeys {
            if case .limited = try limiter.check(key, policy: Self.failurePolicy, now: now) {
                // Consuming while blocked doubles the wait.
                let decision = try limiter.consume(key, policy: Self.failurePolicy, now: now)
                let retryAfter = if case .limited(let seconds) = decision { seconds } else { 1 }
                logger.info("login_limited", ["ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter)])
                return .limited(retryAfter: retryAfter)
            }
        }

        let account = try store.account(email: normalizedEmail)
        let verified: Bool
        if let account, let hash = account.passwordHash {
            verified = hasher.verify(password, against: hash) && account.status == .active
        } else {
            _ = hasher.verifyAgainstDummy(password)
            verified = false
        }
        guard let account, verified, let hash = account.passwordHash else {
            for key in failureKeys { _ = try limiter.consume(key, policy: Self.failurePolicy, now: now) }
            logger.info("login_failed", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            return .rejected
        }
        if hasher.needsRehash(hash) {
            _ = try store.rehashPassword(accountID: account.id, currentHash: hash, newHash: try hasher.hash(password), now: now)
        }
        return .authenticated(account)
    }
}

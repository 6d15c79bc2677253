package import Foundation
package import LatchkeyCrypto

/// The second factor as a ``SecondFactorMethod``: a code from the account's authenticator app
/// (TOTP, RFC 6238) or one of its recovery codes, after the password was right. `amr`: `otp`
/// (RFC 8176) for both.
///
/// Promises:
/// - An authenticator code is accepted for its step and the one before and after
///   (``OneTimePassword/skew``), compared in constant time, and only if its step is later than
///   the last accepted one, recorded by one conditional update: a code is never accepted twice,
///   nor an earlier one after it, on any server sharing the database.
/// - A recovery code (``RecoveryCode``) is spent by one statement, so of racing uses one wins;
///   its use mails the owner how many are left.
/// - Wrong codes of either kind are limited per account (``Limits``), counted *before* the
///   code is checked and given back when it was right, so no number of concurrent guesses gets
///   past the limit; the limit never blocks for longer than its window, and
///   `latchkey users unlock` clears it (the count is kept per failure epoch).
/// - One refusal, `invalid_otp`, for every wrong, replayed, malformed or spent code; beyond the
///   limit `rate_limited` with the seconds to wait.
package struct OneTimeCodeSignIn: SecondFactorMethod {
    /// The purpose a TOTP secret is sealed for (``SecretBox``), bound to its account's id.
    package static let secretPurpose = "totp-secret"

    /// The limits on wrong codes.
    package struct Limits: Sendable {
        /// Wrong codes (authenticator or recovery) for one account, from anywhere.
        package var failuresPerAccount: RateLimitPolicy

        /// At most 5 wrong codes per account in any 15 minutes. With three codes accepted at a
        /// time (one step of skew each way), a guess hits with probability 3/10⁶; at 480 guesses
        /// a day that is one success in about 1.9 years on average, and trying all 10⁶ codes
        /// takes 5.7 years (docs/accounts.md, "Second factor").
        package init() {
            failuresPerAccount = RateLimitPolicy(windows: [.init(limit: 5, seconds: 900)])
        }
    }

    private let store: any AccountStore & SecondFactorStore
    private let secretBox: SecretBox
    private let limiter: any RateLimiter
    private let limits: Limits
    private let templates: MailTemplates
    private let logger: Logger
    private let metrics: any SignInMetrics

    /// Creates it from its dependencies; `secretBox` opens the sealed secrets.
    package init(
        store: any AccountStore & SecondFactorStore, secretBox: SecretBox, limiter: any RateLimiter, limits: Limits = Limits(),
        templates: MailTemplates, logger: Logger, metrics: any SignInMetrics
    ) {
        self.store = store
        self.secretBox = secretBox
        self.limiter = limiter
        self.limits = limits
        self.templates = templates
        self.logger = logger
        self.metrics = metrics
    }

    package var reference: AuthenticationMethodReference { .oneTimePassword }

    package func isEnrolled(_ account: Account) throws -> Bool {
        try store.secondFactor(accountID: account.id) != nil
    }

    /// Checks a ``SignInCredential/oneTimeCode(account:code:)`` credential (an authenticator
    /// code or a recovery code) and returns its account. Throws `invalid_otp` or `rate_limited`.
    package func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> Account? {
        guard case .oneTimeCode(let account, let code) = credential else { return nil }
        try verify(code, account: account, acceptingRecoveryCode: true, clientIP: clientIP, now: now)
        return account
    }

    /// Checks `code` for `account`'s enrolled authenticator at `now` and spends it: a code of
    /// a step later than the last accepted one or, when `acceptingRecoveryCode`, an unused
    /// recovery code (whose use is mailed to the owner). Throws `invalid_otp` (the account has
    /// no authenticator, or the code is wrong, replayed or spent) or `rate_limited`.
    package func verify(_ code: Redacted<String>, account: Account, acceptingRecoveryCode: Bool, clientIP: String, now: Date) throws {
        try counted(account: account, clientIP: clientIP, now: now) {
            guard let factor = try store.secondFactor(accountID: account.id) else { return false }
            let typed = OneTimePassword.normalizedCode(code.exposed)
            if OneTimePassword.isCodeShaped(typed) {
                guard let secret = try openSecret(factor.sealedSecret, accountID: account.id),
                    let step = OneTimePassword.matchingStep(typed, secret: secret.exposed, at: now)
                else { return false }
                guard try store.advanceSecondFactorStep(accountID: account.id, to: step) else {
                    logger.info("otp_replayed", ["account": .string(account.id)])
                    return false
                }
                return true
            }
            guard acceptingRecoveryCode, let normalized = RecoveryCode.normalized(code.exposed) else { return false }
            let remaining = try store.consumeRecoveryCode(
                accountID: account.id, digest: RecoveryCode.digest(normalized, accountID: account.id), now: now
            ) { owner, remaining in
                try templates.notice(.recoveryCodeUsed(usedAt: now, remaining: remaining), to: owner)
            }
            guard let remaining else { return false }
            logger.info("recovery_code_used", ["account": .string(account.id), "remaining": .int(remaining)])
            return true
        }
    }

    /// Checks `code` against `secret`, an authenticator secret not yet enrolled (the enrolment's
    /// confirmation), counting a wrong one against `account`'s limit. Returns the step it
    /// matched, which the enrolment spends. Throws `invalid_otp` or `rate_limited`.
    package func verifyNewSecret(_ secret: Redacted<Data>, code: Redacted<String>, account: Account, clientIP: String, now: Date) throws
        -> Int64
    {
        var matched: Int64?
        try counted(account: account, clientIP: clientIP, now: now) {
            let typed = OneTimePassword.normalizedCode(code.exposed)
            guard OneTimePassword.isCodeShaped(typed) else { return false }
            matched = OneTimePassword.matchingStep(typed, secret: secret.exposed, at: now)
            return matched != nil
        }
        guard let matched else { throw Self.invalidCode }
        return matched
    }

    /// Runs `check` (true: the code was right) under the account's failure limit: counted
    /// before, given back on success. Throws `invalid_otp` when `check` is false.
    private func counted(account: Account, clientIP: String, now: Date, _ check: () throws -> Bool) throws {
        let key = "otp-fail:\(account.id).\(account.failureEpoch)"
        if case .limited(let retryAfter) = try limiter.consume(key, policy: limits.failuresPerAccount, now: now) {
            metrics.signIn(method: Self.methodName, outcome: .rateLimited)
            logger.info("otp_limited", [
                "account": .string(account.id), "ip": .string(IPAddress.truncatedForLogs(clientIP)), "retry_after": .int(retryAfter),
            ])
            throw LatchkeyError.rateLimited(retryAfter: retryAfter)
        }
        let right: Bool
        do {
            right = try check()
        } catch {
            try limiter.refund(key, policy: limits.failuresPerAccount, now: now)
            throw error
        }
        guard right else {
            metrics.signIn(method: Self.methodName, outcome: .wrongCode)
            logger.info("otp_failed", ["account": .string(account.id), "ip": .string(IPAddress.truncatedForLogs(clientIP))])
            throw Self.invalidCode
        }
        try limiter.refund(key, policy: limits.failuresPerAccount, now: now)
        metrics.signIn(method: Self.methodName, outcome: .success)
    }

    /// The account's secret, or nil (logged as an error) when the secret key cannot open it:
    /// another key file, or a damaged row. The account then signs in with a recovery code.
    private func openSecret(_ sealed: String, accountID: String) throws -> Redacted<Data>? {
        do {
            return try secretBox.open(sealed, purpose: Self.secretPurpose, binding: accountID)
        } catch let error as LatchkeyCryptoError {
            logger.error("otp_secret_unreadable", ["account": .string(accountID), "error": .string(error.code.rawValue)])
            return nil
        }
    }

    /// The method's name in `latchkey_sign_ins_total`.
    static let methodName = "otp"

    /// The one answer to a missing, wrong, replayed or spent code (Directus's `INVALID_OTP`).
    package static let invalidCode = LatchkeyError(.invalidOTP, "Invalid user OTP.")
}

package import Foundation
import LatchkeyCrypto
package import LatchkeyWebAuthn

/// The passkey as a ``SignInMethod``: a discoverable credential's assertion, with no address
/// typed (W3C Web Authentication Level 3 §7.2, ``AuthenticationCeremony``). `amr`: `hwk` and
/// `user` (RFC 8176); it stands for both factors (``provesBothFactors``), since the
/// authenticator verified the person (UV is required) on a device they hold.
///
/// Promises:
/// - One error, `invalid_credentials`, for every failure: a challenge unknown, used, expired
///   or issued for a registration; a credential no account has; any failed check of the
///   ceremony (origin, RP ID, UP, UV, BE, the signature, the user handle); a disabled
///   account. The reason is logged (`passkey_sign_in_failed`, the WebAuthn code), never sent.
/// - The limits of the password sign-in (``PasswordSignIn/Limits``), under the same keys, so
///   the two methods share one budget: every attempt counts against the client address's
///   attempts; failures are counted per address before the check and given back on success;
///   once the credential names an account, per account and address too, and an account
///   under attack is throttled as for passwords. Beyond a limit, `rate_limited`.
/// - The challenge is taken out before anything is checked, so it is used once whatever the outcome.
/// - A success stores the sign count (never lower than the stored one), the backup state
///   and the time of use; a counter that did not advance is logged as a warning
///   (`passkey_sign_count_not_advanced`, no secret) and the sign-in goes on (§6.1.1: a signal,
///   not a proof).
package struct PasskeySignIn: SignInMethod {
    private let store: any AccountStore & PasskeyStore
    private let challenges: PasskeyChallenges
    private let relyingParty: RelyingParty
    private let limiter: any RateLimiter
    private let limits: PasswordSignIn.Limits
    private let logger: Logger
    private let metrics: any SignInMetrics
    /// The method's name in `latchkey_sign_ins_total`.
    static let methodName = "passkey"

    /// Creates it from its dependencies; `limits` are the password sign-in's.
    package init(
        store: any AccountStore & PasskeyStore, challenges: PasskeyChallenges, relyingParty: RelyingParty, limiter: any RateLimiter,
        limits: PasswordSignIn.Limits, logger: Logger, metrics: any SignInMetrics
    ) {
        self.store = store
        self.challenges = challenges
        self.relyingParty = relyingParty
        self.limiter = limiter
        self.limits = limits
        self.logger = logger
        self.metrics = metrics
    }

    package var reference: AuthenticationMethodReference { .hardwareKey }
    package var references: [AuthenticationMethodReference] { [.hardwareKey, .userVerification] }
    package var provesBothFactors: Bool { true }

    /// The options of a sign-in (`navigator.credentials.get`), asked for from `clientIP`: a new
    /// challenge for this relying party. Throws `rate_limited` beyond the address's limit.
    package func options(clientIP: String) throws -> PasskeyAuthenticationOptions {
        PasskeyAuthenticationOptions(
            challenge: try challenges.issue(.authentication, accountID: nil, clientIP: clientIP), relyingPartyID: relyingParty.id,
            timeout: PasskeyChallenges.lifetime)
    }

    /// Checks a ``SignInCredential/passkey(_:)`` credential and returns its account. Throws
    /// `invalid_credentials` (never why), `rate_limited` or `rate_limiter_unavailable`.
    package func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> Account? {
        guard case .passkey(let response) = credential else { return nil }
        let ip = IPAddress.rateLimitKey(clientIP)
        try consume("login-ip:" + ip, limits.attemptsPerIP, now: now, clientIP: clientIP)
        // Counted before the check, so no number of concurrent attempts gets past the limit.
        try consume("login-fail-ip:" + ip, limits.failuresPerIP, now: now, clientIP: clientIP)
        var counted = [("login-fail-ip:" + ip, limits.failuresPerIP)]
        var subject: String?
        do {
            guard let (challenge, _) = try challenges.consume(clientDataJSON: response.clientDataJSON, purpose: .authentication) else {
                throw Failure(reason: "challenge_not_found", outcome: .invalidPasskey)
            }
            guard let passkey = try store.passkey(credentialID: response.credentialID),
                let account = try store.account(id: passkey.accountID)
            else { throw Failure(reason: "unknown_credential", outcome: .unknownAccount) }
            let accountSubject = "account:\(account.id).\(account.credentialVersion).\(account.failureEpoch)"
            subject = accountSubject
            let pairKey = "login-fail:" + accountSubject + "@" + ip
            try consume(pairKey, limits.failuresPerAccountAndIP, now: now, clientIP: clientIP)
            counted.append((pairKey, limits.failuresPerAccountAndIP))
            if case .limited = try limiter.check("login-fail-account:" + accountSubject, policy: limits.failuresBeforeThrottle, now: now) {
                try consume("login-throttle:" + accountSubject + "@" + ip, limits.throttle, now: now, clientIP: clientIP)
            }
            let result: AuthenticationResult
            do {
                result = try AuthenticationCeremony.verify(
                    response, challenge: challenge, relyingParty: relyingParty, credential: passkey.credential,
                    userHandle: passkey.userHandle, identification: .discoverable)
            } catch let error as WebAuthnError {
                throw Failure(reason: error.code.rawValue, outcome: .invalidPasskey)
            }
            guard account.status == .active else { throw Failure(reason: "account_disabled", outcome: .disabledAccount) }
            for (key, policy) in counted { try limiter.refund(key, policy: policy, now: now) }
            _ = try store.recordPasskeyUse(
                credentialID: result.credentialID, signCount: result.signCount, backupState: result.backupState, now: now)
            if result.signCountSignal == .didNotAdvance {
                logger.warning("passkey_sign_count_not_advanced", [
                    "account": .string(account.id), "stored": .int(Int(passkey.credential.signCount)),
                ])
            }
            metrics.signIn(method: Self.methodName, outcome: .success)
            return account
        } catch let failure as Failure {
            if let subject {
                _ = try limiter.consume("login-fail-account:" + subject, policy: limits.failuresBeforeThrottle, now: now)
            }
            logger.info("passkey_sign_in_failed", [
                "reason": .string(failure.reason), "ip": .string(IPAddress.truncatedForLogs(clientIP)),
            ])
            metrics.signIn(method: Self.methodName, outcome: failure.outcome)
            throw SignInService.invalidCredentials
        } catch let error as WebAuthnError {
            // The client data could not be read: no challenge can be found from it.
            logger.info("passkey_sign_in_failed", [
                "reason": .string(error.code.rawValue), "ip": .string(IPAddress.truncatedForLogs(clientIP)),
            ])
            metrics.signIn(method: Self.methodName, outcome: .invalidPasskey)
            throw SignInService.invalidCredentials
        } catch let error as LatchkeyError where error.code == .rateLimited {
            // A limit refused it before the check: what was counted for it is given back.
            for (key, policy) in counted { try limiter.refund(key, policy: policy, now: now) }
            throw error
        }
    }

    /// Counts one event for `key`; throws `rate_limited` when it is over `policy`.
    private func consume(_ key: String, _ policy: RateLimitPolicy, now: Date, clientIP: String) throws {
        try limiter.consumeSignIn(key, policy, now: now, clientIP: clientIP, method: Self.methodName, metrics: metrics, logger: logger)
    }

    /// Why a passkey did not sign in, for the log and the metrics only.
    private struct Failure: Error {
        let reason: String
        let outcome: SignInOutcome
    }
}

/// What a passkey sign-in's options carry (`PublicKeyCredentialRequestOptions`): a challenge
/// and the RP ID; the credential is discoverable, so no credentials are listed.
package struct PasskeyAuthenticationOptions: Sendable {
    /// The challenge's bytes.
    package let challenge: Data
    /// The RP ID.
    package let relyingPartyID: String
    /// How long the ceremony may take.
    package let timeout: TimeInterval
}

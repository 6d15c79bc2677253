package import Foundation
package import LatchkeyCrypto

/// Turning the second factor on and off, and renewing recovery codes: the settings side of
/// ``OneTimeCodeSignIn`` (Directus's `/users/me/tfa/*` routes and the enrolment page).
///
/// Promises:
/// - ``generate(email:password:clientIP:)`` needs the account's password (checked with every
///   limit of a sign-in), so a stolen access token alone cannot put an attacker's authenticator
///   on the account. The new secret (160 CSPRNG bits) is kept server-side, sealed and bound to
///   the account, for ``pendingLifetime``; the secret is returned once, in base32 and in the
///   `otpauth://` URL.
/// - ``enable(_:account:secret:code:clientIP:acceptLanguage:)`` enrols only that pending secret: a
///   `secret` sent back must be it (compared in constant time), so no client can enrol a secret
///   of its own choosing. The confirming code's step is spent (the same code cannot then sign
///   in), ``RecoveryCode/count`` recovery codes are made and returned once, and the owner is
///   mailed, in one transaction.
/// - Turning it off needs a code (authenticator or recovery); renewing the recovery codes needs
///   an authenticator code. Both go through ``OneTimeCodeSignIn`` (replay, limits), and turning
///   it off mails the owner.
/// - Every change is made only while the sign-in asking for it still holds, checked by the store
///   under the account's lock in the transaction that writes (``SecondFactorEnabling``,
///   ``SecondFactorRemoval``): a login revoked a moment before — a password reset, a sign-out,
///   the account disabled — changes nothing and is answered `invalid_credentials`
///   (``AccountSelfService/unauthenticated``), as every other account change.
package struct AuthenticatorEnrolment: Sendable {
    /// How long a generated secret waits for its confirmation: ten minutes.
    package static let pendingLifetime: TimeInterval = 600

    /// A generated secret, shown once.
    package struct Generated: Sendable {
        /// The account it was generated for.
        package var account: Account { passwordStep.account }
        /// The password step that generated it (for the enrolment page's challenge).
        package let passwordStep: SignInService.FirstStep
        /// The secret in base32 (for typing it into an app).
        package let secret: Redacted<String>
        /// The `otpauth://totp/…` URL (for a QR code, or a link that opens the app).
        package let provisioningURL: Redacted<String>
    }

    private let store: any AccountStore & SecondFactorStore
    private let signIn: SignInService
    private let codes: OneTimeCodeSignIn
    private let secretBox: SecretBox
    private let templates: MailTemplates
    private let issuer: String
    private let clock: any WallClock
    private let logger: Logger

    /// Creates it from its dependencies; `issuer` is the name authenticator apps show
    /// (`LATCHKEY_TOTP_ISSUER`).
    package init(
        store: any AccountStore & SecondFactorStore, signIn: SignInService, codes: OneTimeCodeSignIn, secretBox: SecretBox,
        templates: MailTemplates, issuer: String, clock: any WallClock, logger: Logger
    ) {
        self.store = store
        self.signIn = signIn
        self.codes = codes
        self.secretBox = secretBox
        self.templates = templates
        self.issuer = issuer
        self.clock = clock
        self.logger = logger
    }

    /// A new secret for the account `email` whose password is `password`, from `clientIP`,
    /// kept as its pending one. Throws the password sign-in's refusals (`invalid_credentials`,
    /// `rate_limited`), or `invalid_request` when the account has an authenticator already.
    package func generate(email: String, password: Redacted<String>, clientIP: String) throws -> Generated {
        let account: Account
        switch try signIn.begin(.password(email: email, password: password), clientIP: clientIP) {
        case .signedIn(let signedIn): account = signedIn.account
        case .needsSecondFactor: throw Self.alreadyEnabled
        }
        let secret = Redacted(SecureRandom.bytes(OneTimePassword.secretLength))
        let now = clock.now()
        try store.savePendingSecondFactor(
            accountID: account.id, sealedSecret: secretBox.seal(secret.exposed, purpose: OneTimeCodeSignIn.secretPurpose, binding: account.id),
            now: now, expiresAt: now.addingTimeInterval(Self.pendingLifetime))
        logger.info("otp_secret_generated", ["account": .string(account.id)])
        return Generated(
            passwordStep: SignInService.FirstStep(account: account, methods: [.password]), secret: Redacted(Base32.encode(secret.exposed)),
            provisioningURL: Redacted(OneTimePassword.provisioningURL(secret: secret.exposed, account: account.email, issuer: issuer)))
    }

    /// `account`'s pending secret again, while it waits for its confirmation (the enrolment page
    /// shows it again after a wrong code); nil once it expired or was enrolled.
    package func pendingSecret(for account: Account) throws -> Generated? {
        guard let sealed = try store.pendingSecondFactor(accountID: account.id, now: clock.now()),
            let secret = try? secretBox.open(sealed, purpose: OneTimeCodeSignIn.secretPurpose, binding: account.id)
        else { return nil }
        return Generated(
            passwordStep: SignInService.FirstStep(account: account, methods: [.password]), secret: Redacted(Base32.encode(secret.exposed)),
            provisioningURL: Redacted(OneTimePassword.provisioningURL(secret: secret.exposed, account: account.email, issuer: issuer)))
    }

    /// Enrols `account`'s pending secret, confirmed by `code` (and equal to `secret` when one is
    /// sent back, as Directus's clients do), from `clientIP`, while `enabling` (the login or the
    /// page's password step asking, for `account`) still holds. Returns the new recovery codes.
    /// Throws `invalid_request` (no pending secret, it expired, `secret` is another, or the
    /// account has an authenticator already), `invalid_otp`, `rate_limited`, or
    /// `invalid_credentials` when `enabling` no longer holds.
    package func enable(
        _ enabling: SecondFactorEnabling, account: Account, secret: String?, code: Redacted<String>, clientIP: String,
        acceptLanguage: String?
    ) throws -> [Redacted<String>] {
        guard enabling.accountID == account.id else { throw AccountSelfService.unauthenticated }
        let now = clock.now()
        guard let sealed = try store.pendingSecondFactor(accountID: account.id, now: now),
            let pending = try? secretBox.open(sealed, purpose: OneTimeCodeSignIn.secretPurpose, binding: account.id)
        else { throw Self.noPendingSecret }
        if let secret {
            guard let sent = Base32.decode(secret), ConstantTime.equals(sent, pending.exposed) else {
                throw LatchkeyError(.invalidRequest, "The secret is not the one generated for this account; generate a new one.")
            }
        }
        let step = try codes.verifyNewSecret(pending, code: code, account: account, clientIP: clientIP, now: now)
        let recoveryCodes = RecoveryCode.generate()
        let result = try store.enableSecondFactor(
            enabling, sealedSecret: sealed, acceptedStep: step,
            recoveryCodeDigests: recoveryCodes.map { RecoveryCode.digest(RecoveryCode.normalized($0.exposed) ?? "", accountID: account.id) },
            now: now
        ) { owner in
            try templates.notice(.secondFactorChanged(.enabled, changedAt: now), to: owner, acceptLanguage: acceptLanguage)
        }
        switch result {
        case .changed: break
        case .signInEnded: throw AccountSelfService.unauthenticated
        case .nothingToChange: throw try codes.isEnrolled(account) ? Self.alreadyEnabled : Self.noPendingSecret
        }
        logger.info("otp_enabled", ["account": .string(account.id)])
        return recoveryCodes
    }

    /// Removes `owner`'s authenticator and recovery codes, with `code` (an authenticator code or
    /// a recovery code) from `clientIP`, and mails them, while their login is still live. Throws
    /// `invalid_otp` (also when it has none), `rate_limited`, or `invalid_credentials` when the
    /// login ended.
    package func disable(_ owner: AccountOwner, code: Redacted<String>, clientIP: String, acceptLanguage: String?) throws {
        let now = clock.now()
        try codes.verify(code, account: owner.account, acceptingRecoveryCode: true, clientIP: clientIP, now: now)
        let result = try store.removeSecondFactor(.byOwner(owner.login), now: now) { account in
            try templates.notice(.secondFactorChanged(.disabled, changedAt: now), to: account, acceptLanguage: acceptLanguage)
        }
        // nothingToChange: a removal racing this one won; the factor is off either way.
        guard result != .signInEnded else { throw AccountSelfService.unauthenticated }
        logger.info("otp_disabled", ["account": .string(owner.account.id)])
    }

    /// Replaces every recovery code of `owner`'s account with new ones, with an authenticator
    /// `code` (not a recovery code) from `clientIP`, while their login is still live. Returns the
    /// new codes. Throws `invalid_otp` (also when it has no authenticator), `rate_limited`, or
    /// `invalid_credentials` when the login ended.
    package func renewRecoveryCodes(_ owner: AccountOwner, code: Redacted<String>, clientIP: String) throws -> [Redacted<String>] {
        let account = owner.account
        let now = clock.now()
        try codes.verify(code, account: account, acceptingRecoveryCode: false, clientIP: clientIP, now: now)
        let recoveryCodes = RecoveryCode.generate()
        switch try store.replaceRecoveryCodes(
            login: owner.login,
            digests: recoveryCodes.map { RecoveryCode.digest(RecoveryCode.normalized($0.exposed) ?? "", accountID: account.id) }, now: now)
        {
        case .changed: break
        case .signInEnded: throw AccountSelfService.unauthenticated
        case .nothingToChange: throw OneTimeCodeSignIn.invalidCode
        }
        logger.info("recovery_codes_renewed", ["account": .string(account.id)])
        return recoveryCodes
    }

    /// The refusal of a second enrolment.
    package static let alreadyEnabled = LatchkeyError(.invalidRequest, "Two-step sign-in is already on for this account.")
    /// The refusal of a confirmation without a secret to confirm.
    package static let noPendingSecret = LatchkeyError(
        .invalidRequest, "There is no generated secret to confirm (it expires after 10 minutes); generate one first.")
}

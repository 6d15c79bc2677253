package import Foundation

/// An account's enrolled authenticator app: its TOTP secret, sealed (``LatchkeyCrypto/SecretBox``,
/// purpose ``OneTimeCodeSignIn/secretPurpose``, bound to the account id), and the last time
/// step whose code was accepted.
package struct SecondFactorRecord: Sendable, Equatable {
    /// The account it belongs to.
    package let accountID: String
    /// The sealed secret.
    package let sealedSecret: String
    /// The last step whose code was accepted (the enrolment's too): a code of this step or an
    /// earlier one is never accepted again.
    package let lastStep: Int64
    /// When it was enrolled.
    package let enabledAt: Date

    /// Creates the value.
    package init(accountID: String, sealedSecret: String, lastStep: Int64, enabledAt: Date) {
        self.accountID = accountID
        self.sealedSecret = sealedSecret
        self.lastStep = lastStep
        self.enabledAt = enabledAt
    }
}

/// A page's step that the password was right for the account, with the code still to come:
/// the code step of the sign-in page, or the enrolment page's confirmation. Kept server-side
/// under the SHA-256 of the token the page carries, used once.
package struct SignInChallengeRecord: Sendable, Equatable {
    /// What the code completes.
    package enum Kind: String, Sendable {
        /// A sign-in on `/oauth/authorize`: the code of the enrolled authenticator (or a recovery code).
        case signIn = "sign_in"
        /// The enrolment page: the code of the account's pending secret.
        case enrolment
    }

    /// The SHA-256 (hex) of the challenge token.
    package let digest: String
    /// What the code completes.
    package let kind: Kind
    /// The account whose password was right.
    package let accountID: String
    /// The account's credential version then: a reset in between voids the challenge.
    package let credentialVersion: Int
    /// When the password step happened.
    package let createdAt: Date
    /// When the challenge stops being accepted.
    package let expiresAt: Date

    /// Creates the value.
    package init(digest: String, kind: Kind, accountID: String, credentialVersion: Int, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.kind = kind
        self.accountID = accountID
        self.credentialVersion = credentialVersion
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The credentials of the one-time code sign-in method (``OneTimeCodeSignIn``): enrolled
/// authenticator apps, secrets generated and not yet confirmed, recovery codes, and the
/// sign-in page's second-step challenges. Every change that must have one winner is one
/// conditional statement, so it holds across servers sharing the database.
package protocol SecondFactorStore: Sendable {
    /// The enrolled authenticator of the account, if any.
    func secondFactor(accountID: String) throws -> SecondFactorRecord?
    /// Keeps `sealedSecret` as the account's generated, unconfirmed secret until `expiresAt`,
    /// replacing one generated before.
    func savePendingSecondFactor(accountID: String, sealedSecret: String, now: Date, expiresAt: Date) throws
    /// The account's unconfirmed secret, unless it expired by `now`.
    func pendingSecondFactor(accountID: String, now: Date) throws -> String?
    /// Enrols the pending secret `sealedSecret` of `enabling`'s account in one transaction: under
    /// the account's lock, `enabling` must still hold at `now` (else ``SecondFactorChangeResult/signInEnded``),
    /// `sealedSecret` must still be the account's pending one and unexpired, and the account must
    /// have no authenticator (else ``SecondFactorChangeResult/nothingToChange``); `acceptedStep`
    /// (the confirming code's) becomes the last accepted step; the recovery codes become
    /// `recoveryCodeDigests`; the message `notice` makes is queued. Nothing changes unless the
    /// result is ``SecondFactorChangeResult/changed``.
    func enableSecondFactor(
        _ enabling: SecondFactorEnabling, sealedSecret: String, acceptedStep: Int64, recoveryCodeDigests: [String], now: Date,
        notice: (Account) throws -> MailMessage
    ) throws -> SecondFactorChangeResult
    /// Records that the code of `step` was accepted, if `step` is later than the last accepted
    /// one: one conditional update (`… WHERE last_step < step`), true for exactly one of any
    /// number of racing callers with the same step, on every server.
    func advanceSecondFactorStep(accountID: String, to step: Int64) throws -> Bool
    /// Spends the recovery code with `digest` of the account, in one statement (one winner),
    /// queuing the message `notice` makes from the account and the codes left, in the same
    /// transaction. Returns how many codes are left; nil when the account has no such code.
    func consumeRecoveryCode(
        accountID: String, digest: String, now: Date, notice: (Account, _ remaining: Int) throws -> MailMessage
    ) throws -> Int?
    /// Replaces every recovery code of `login`'s account by `digests`, in one transaction, under
    /// the account's lock: only while `login` is still live at `now` (else
    /// ``SecondFactorChangeResult/signInEnded``) and the account has an authenticator (else
    /// ``SecondFactorChangeResult/nothingToChange``).
    func replaceRecoveryCodes(login: LoginReference, digests: [String], now: Date) throws -> SecondFactorChangeResult
    /// How many unused recovery codes the account has.
    func recoveryCodeCount(accountID: String) throws -> Int
    /// Removes the authenticator of `removal`'s account, its recovery codes, its pending secret
    /// and its challenges, queuing the message `notice` makes in the same transaction. An owner's
    /// removal happens only while their login is still live at `now`, checked under the
    /// account's lock (else ``SecondFactorChangeResult/signInEnded``); an operator's needs no
    /// login. ``SecondFactorChangeResult/nothingToChange`` (and no mail) when it had no authenticator.
    func removeSecondFactor(
        _ removal: SecondFactorRemoval, now: Date, notice: (Account) throws -> MailMessage
    ) throws -> SecondFactorChangeResult
    /// Keeps a sign-in page challenge.
    func createSignInChallenge(_ challenge: SignInChallengeRecord) throws
    /// Takes the unexpired challenge with `digest` out, in one statement: of racing callers one
    /// gets it, the others (and every later one) nil.
    func consumeSignInChallenge(digest: String, now: Date) throws -> SignInChallengeRecord?
}

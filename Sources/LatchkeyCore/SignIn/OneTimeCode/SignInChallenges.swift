package import Foundation
package import LatchkeyCrypto

/// The pages' bridge between the password and the code: after a right password, the page
/// carries a challenge token instead of the password, and the code step takes it back.
///
/// Promises: a challenge is 32 CSPRNG bytes of which only the SHA-256 is stored, for one kind
/// of step and one account at its credential version; it is taken out by one statement, so it
/// is used once on every server (a wrong code gets a new one, expiring when the first did, so
/// the codes never extend the time the password step bought); it lives ``lifetime(of:)`` at
/// most, and a password reset, a disabled account or a deleted one voids it.
package struct SignInChallenges: Sendable {
    private let store: any AccountStore & SecondFactorStore
    private let clock: any WallClock

    /// Creates it from its dependencies.
    package init(store: any AccountStore & SecondFactorStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// How long the code step may follow the password: 5 minutes on the sign-in page, 10 on the
    /// enrolment page (as long as the generated secret waits).
    package static func lifetime(of kind: SignInChallengeRecord.Kind) -> TimeInterval {
        switch kind {
        case .signIn: 300
        case .enrolment: AuthenticatorEnrolment.pendingLifetime
        }
    }

    /// A new challenge of `kind` for `first`, expiring at `expiresAt` (default: its lifetime from now).
    package func start(_ first: SignInService.FirstStep, kind: SignInChallengeRecord.Kind, expiresAt: Date? = nil) throws
        -> Redacted<String>
    {
        let token = SecureRandom.token()
        let now = clock.now()
        try store.createSignInChallenge(SignInChallengeRecord(
            digest: Hex.encode(OpaqueToken.digest(token)), kind: kind, accountID: first.account.id, credentialVersion: first.account.credentialVersion,
            createdAt: now, expiresAt: expiresAt ?? now.addingTimeInterval(Self.lifetime(of: kind))))
        return token
    }

    /// Takes the challenge `token` of `kind` out: the first step it stood for (the account read
    /// again) and when it expires; nil when it is missing, malformed, expired, used, of another
    /// kind, or its account changed its password, was disabled or deleted.
    package func take(_ token: Redacted<String>?, kind: SignInChallengeRecord.Kind) throws
        -> (first: SignInService.FirstStep, expiresAt: Date)?
    {
        guard let token, let digest = OpaqueToken.wellFormedDigest(token),
            let challenge = try store.consumeSignInChallenge(digest: Hex.encode(digest), now: clock.now()), challenge.kind == kind,
            let account = try store.account(id: challenge.accountID), account.status == .active,
            account.credentialVersion == challenge.credentialVersion
        else { return nil }
        return (SignInService.FirstStep(account: account, methods: [.password]), challenge.expiresAt)
    }
}

package import Foundation
package import LatchkeyCrypto

/// The one rule for changes that matter to an account (its password, its address, closing it):
/// the login making the change signed in recently, at the account's highest level, or the
/// person proves again who they are. Every such change asks here.
///
/// Promises:
/// - A login whose sign-in (``Assurance/authTime``) is at most ``maximumSignInAge`` old passes —
///   for an account with a second factor enrolled, only if that sign-in included it (`otp` in
///   its methods, or a passkey's `hwk` and `user`, which stand for both factors).
/// - Otherwise the current password passes — with, for an account with a second factor, a code
///   of it (`otp`) — checked through ``SignInService`` with every limit of a sign-in: a wrong
///   password is `invalid_credentials` and counts as a failed sign-in; a missing or wrong code
///   after a right password is `invalid_otp` and counts against the code's limit; beyond the
///   limits `rate_limited` with the seconds to wait.
/// - A password given is always checked, even with a recent sign-in: a client that sends one
///   learns whether it was right.
/// - Neither: `reauthentication_required`.
package struct Reauthentication: Sendable {
    /// How long after signing in a login may change the account without the password again:
    /// five minutes.
    package static let maximumSignInAge: TimeInterval = 300

    private let signIn: SignInService
    private let clock: any WallClock

    /// The rule, checking passwords and codes through `signIn`, timed by `clock`.
    package init(signIn: SignInService, clock: any WallClock) {
        self.signIn = signIn
        self.clock = clock
    }

    /// Passes when the login of `account` that signed in with `assurance` may change the
    /// account now, or `currentPassword` (as typed) is the account's password — and `code` a
    /// right code of its second factor, when it has one —, from `clientIP`. Throws
    /// `reauthentication_required`, `invalid_credentials`, `invalid_otp` or `rate_limited`.
    package func confirm(
        account: Account, assurance: Assurance, currentPassword: Redacted<String>?, code: Redacted<String>? = nil, clientIP: String
    ) throws {
        if let currentPassword {
            let signedIn = try signIn.signIn(.password(email: account.email, password: currentPassword), code: code, clientIP: clientIP)
            // The address may have moved to another account since the token was issued.
            guard signedIn.account.id == account.id else { throw SignInService.invalidCredentials }
            return
        }
        let age = clock.now().timeIntervalSince(assurance.authTime)
        guard age <= Self.maximumSignInAge else { throw Self.required }
        if try signIn.requiresSecondFactor(account), !assurance.includesSecondFactor {
            throw Self.required
        }
    }

    /// The refusal when neither a recent sign-in nor a password was brought.
    package static let required = LatchkeyError(
        .reauthenticationRequired, "This change needs a recent sign-in: sign in again or enter your current password.")
}

import Foundation

/// Where a password sign-in stands (``FirstPartyLogin/beginSignIn(email:password:)``).
public enum FirstPartySignInStep: Sendable {
    /// Signed in: the new session's tokens.
    case signedIn(StoredTokens)
    /// The password was right, and the account has two-step sign-in: ask for the code.
    case secondFactorRequired(SecondFactorChallenge)
}

/// The second step of a password sign-in for an account with two-step sign-in: the code from
/// the authenticator app, or one of the account's recovery codes (`XXXX-XXXX-XXXX`, any case,
/// spaces and hyphens ignored).
///
/// Promises: ``complete(code:)`` sends the address and password again with the code (Directus's
/// `/auth/login` takes them together; the server keeps no state between the steps), so the
/// challenge holds the password, as a ``ClientSecret``, in memory only, until it is dropped. A
/// wrong code throws `invalid_otp` and the challenge can be completed again; each code works
/// once on the server, so a code that was just used is refused. Nothing here prints a secret.
public struct SecondFactorChallenge: Sendable, CustomStringConvertible {
    /// The address being signed in.
    public let email: String
    private let login: FirstPartyLogin
    private let password: ClientSecret

    init(login: FirstPartyLogin, email: String, password: ClientSecret) {
        self.login = login
        self.email = email
        self.password = password
    }

    /// Completes the sign-in with `code` and returns the new session's tokens.
    ///
    /// - Throws: `invalid_otp` (wrong, used already or spent; ask again), `invalid_credentials`
    ///   (the password changed meanwhile: start again), `rate_limited` (too many wrong codes:
    ///   wait ``LatchkeyClientError/retryAfter``), or a server/transport error.
    public func complete(code: ClientSecret) async throws -> StoredTokens {
        let typed = code.exposed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty, typed.utf8.count <= 64 else { throw LatchkeyClientError(.invalidOTP) }
        return try await login.signIn(email: email, password: password, code: ClientSecret(typed))
    }

    /// "SecondFactorChallenge(email)": never the password.
    public var description: String { "SecondFactorChallenge(\(email))" }
}

import Foundation
package import LatchkeyCrypto

/// Signing in with email and password to get tokens directly (the Directus-compatible
/// `/auth/login`): the credential check of ``PasswordLogin`` and a new login of ``TokenService``.
///
/// Promises: one error, `invalid_credentials`, for an unknown account, a wrong password, a
/// disabled account, and an account that changed while it was checked; `rate_limited` with
/// the seconds to wait beyond the failure limits.
package struct FirstPartyLogin: Sendable {
    private let passwordLogin: PasswordLogin
    private let tokens: TokenService
    private let clock: any WallClock
    private let logger: Logger

    /// Creates it from its dependencies.
    package init(passwordLogin: PasswordLogin, tokens: TokenService, clock: any WallClock, logger: Logger) {
        self.passwordLogin = passwordLogin
        self.tokens = tokens
        self.clock = clock
        self.logger = logger
    }

    /// Checks `email` and `password` (as typed; normalised here) from `clientIP` and starts a
    /// first-party login.
    package func signIn(email: String, password: Redacted<String>, clientIP: String) throws -> TokenService.IssuedTokens {
        let account = try passwordLogin.attempt(
            email: email, password: PasswordPolicy.normalized(password), clientIP: clientIP, now: clock.now())
        let issued: TokenService.IssuedTokens
        do {
            issued = try tokens.issue(for: account, clientID: nil, scope: [])
        } catch let error as LatchkeyError where error.code == .invalidToken {
            // The password changed or the account was disabled while we checked.
            throw PasswordLogin.invalidCredentials
        }
        logger.info("login_succeeded", ["account": .string(account.id)])
        return issued
    }
}

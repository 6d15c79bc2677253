import Foundation
package import LatchkeyCrypto

/// Signing in to get tokens directly (the Directus-compatible `/auth/login`): a sign-in of
/// ``SignInService`` and a new login of ``TokenService``.
///
/// Promises: one error, `invalid_credentials`, for an unknown account, a wrong password, a
/// disabled account, and an account that changed while it was checked; `rate_limited` with
/// the seconds to wait beyond the failure limits. The login is granted ``scope``, which every
/// refresh of it keeps, so its access tokens are accepted by `/userinfo`.
package struct FirstPartyLogin: Sendable {
    /// The scopes of a first-party login: what the operator's own app needs to learn who signed
    /// in (`openid`: the account's id at `/userinfo`; `email`: its address there).
    package static let scope = ["openid", "email"]

    private let signIn: SignInService
    private let tokens: TokenService
    private let logger: Logger

    /// Creates it from its dependencies.
    package init(signIn: SignInService, tokens: TokenService, logger: Logger) {
        self.signIn = signIn
        self.tokens = tokens
        self.logger = logger
    }

    /// A started login: its tokens, and the device token to hand back to the client (nil when
    /// devices are not recorded).
    package struct Started: Sendable {
        /// The login's tokens.
        package let tokens: TokenService.IssuedTokens
        /// The device's token (``RecognisedDevices``): the one presented when it was ours, else
        /// a new one.
        package let device: DeviceToken?
    }

    /// Checks `credential` (and `code`, the second factor's, for an account that has one) from
    /// `clientIP` and starts a first-party login, recording where it came from (`clientIP` and
    /// the `User-Agent` header `userAgent`) for the account's list of signed-in devices, and
    /// the device (``SignInService/recordDevice(_:presented:origin:)``) that presented
    /// `device`. A missing or wrong code after a right password is `invalid_otp`.
    package func signIn(
        _ credential: SignInCredential, code: Redacted<String>? = nil, device: DeviceToken? = nil, clientIP: String, userAgent: String?
    ) throws -> Started {
        let signedIn = try signIn.signIn(credential, code: code, clientIP: clientIP)
        let origin = LoginOrigin(clientIP: clientIP, userAgentHeader: userAgent)
        let issued: TokenService.IssuedTokens
        do {
            issued = try tokens.issue(for: signedIn, clientID: nil, scope: Self.scope, origin: origin)
        } catch let error as LatchkeyError where error.code == .invalidToken {
            // The password changed or the account was disabled while we checked.
            throw SignInService.invalidCredentials
        }
        let recorded = try signIn.recordDevice(signedIn, presented: device, origin: origin)
        logger.info("login_succeeded", ["account": .string(signedIn.account.id)])
        return Started(tokens: issued, device: recorded)
    }
}

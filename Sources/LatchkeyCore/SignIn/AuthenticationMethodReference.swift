/// A value of the `amr` claim (RFC 8176 §2): what a sign-in method proved. Stored with every
/// browser session, authorization code and login, and carried in ID tokens, so that whoever
/// decides on an account change asks what the person proved instead of guessing it.
package struct AuthenticationMethodReference: RawRepresentable, Hashable, Sendable {
    /// The registered name (RFC 8176 §2, "Authentication Method Reference Values").
    package let rawValue: String

    /// The reference named `rawValue`.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `pwd`: a password known only to the person.
    package static let password = AuthenticationMethodReference(rawValue: "pwd")
    /// `otp`: a one-time password — an authenticator app's code, or a recovery code.
    package static let oneTimePassword = AuthenticationMethodReference(rawValue: "otp")
    /// `hwk`: proof of possession of a hardware-secured key — a passkey.
    package static let hardwareKey = AuthenticationMethodReference(rawValue: "hwk")
    /// `user`: user presence and verification by the authenticator itself (a passkey's UV:
    /// Face ID, Touch ID, a device PIN).
    package static let userVerification = AuthenticationMethodReference(rawValue: "user")
}

package import LatchkeyCrypto
package import LatchkeyWebAuthn

/// What a person presents to sign in, one case per kind of credential; each
/// ``SignInMethod`` takes the kinds it knows.
package enum SignInCredential: Sendable {
    /// An email address and a password, both as typed (the password is normalised by the
    /// method), and the device token the client presented (nil: none, or not shaped like ours),
    /// which decides whether the account-wide cap on failures applies (``RecognisedDevices``).
    case password(email: String, password: Redacted<String>, device: DeviceToken? = nil)
    /// A one-time code (an authenticator app's, or a recovery code) for `account`, whose
    /// password was proved first, as typed.
    case oneTimeCode(account: Account, code: Redacted<String>)
    /// A passkey's assertion (a discoverable credential, no address typed): the W3C JSON form
    /// as the client sent it, with no account named but by the credential itself.
    case passkey(AuthenticationResponse)
}

/// The words of the passkey sign-in on the `/oauth/authorize` sign-in page: its button, and
/// what the page says while the browser asks for the passkey, when the ceremony did not finish,
/// and when the server did not accept the passkey.
package struct PasskeySignInText: Sendable {
    /// Between the password form and the passkey button: the other way to sign in.
    package let or: String
    /// The button that signs in with a passkey.
    package let signInWithPasskey: String
    /// Shown while the browser asks for the passkey.
    package let waiting: String
    /// The browser's ceremony was cancelled, timed out or failed: try again, or use the password.
    package let notFinished: String
    /// The server did not accept the passkey (one message for every cause): try again, or use the password.
    package let notAccepted: String
}

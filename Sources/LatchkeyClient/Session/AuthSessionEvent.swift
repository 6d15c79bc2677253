/// Something that happened to an ``AuthSession``, delivered by ``AuthSession/events()``.
public enum AuthSessionEvent: Sendable, Equatable {
    /// The state when the subscription began: always the first event of a subscription.
    case current(AuthSessionState)
    /// New tokens were stored by ``AuthSession/signIn(_:)``.
    case signedIn
    /// The access token was renewed with the refresh token.
    case refreshed
    /// The session ended and its tokens were removed.
    case signedOut(SignOutReason)
    /// A password reset completed; the server ended every session of the account, and
    /// the local tokens were removed.
    case passwordRecovered

    /// Why a session ended.
    public enum SignOutReason: Sendable, Equatable {
        /// The app called ``AuthSession/signOut()``.
        case userRequested
        /// The server rejected the refresh token (expired, revoked, reused, or the
        /// password changed), or there was none to renew an expired access token.
        case sessionEnded
        /// The person deleted their account (``AccountClient/deleteAccount(currentPassword:code:)``):
        /// every token of it stopped.
        case accountDeleted
    }
}

/// Whether an ``AuthSession`` holds a sign-in, as far as the device can tell right now.
public enum AuthSessionState: Sendable, Equatable {
    /// Tokens are held; `subject` is the account's identifier when an ID token named it.
    case signedIn(subject: String?)
    /// No tokens are held.
    case signedOut
    /// The store cannot be read now: `token_store_locked` while the device is locked
    /// (retry when it unlocks), `user_authentication_failed` when Face ID was cancelled,
    /// `token_store_corrupted` (sign in again).
    case unavailable(LatchkeyClientError)
}

/// Something that happened to an ``AuthSession``, delivered on ``AuthSession/events``.
public enum AuthSessionEvent: Sendable, Equatable {
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
    }
}

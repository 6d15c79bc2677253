/// The one error type of the SDK. Each error has a stable ``code`` (what an app matches
/// on), a ``kind`` that says what the app should do about it, and a non-technical,
/// localized ``message(for:)`` to show a person. No error carries a secret.
///
/// New codes can be added without breaking callers: the codes are static members of a
/// struct, not cases of a public enum.
public struct LatchkeyClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an app should do about an error.
    public enum Kind: Sendable, Hashable {
        /// A temporary condition (rate limit, server trouble): trying again later may work.
        case retryable
        /// The person must act: fix the input, request a new link or sign in again.
        case needsUserAction
        /// A bug or misconfiguration: retrying or asking the person will not help.
        case fatal
    }

    /// A stable identifier for a kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable wire form, e.g. `invalid_token`.
        public let rawValue: String
        /// What an app should do about errors with this code.
        public let kind: Kind

        private init(_ rawValue: String, _ kind: Kind) {
            self.rawValue = rawValue
            self.kind = kind
        }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// The server refused because of too many attempts; wait and retry.
        public static let rateLimited = Code("rate_limited", .retryable)
        /// The server failed or is unavailable (5xx, 408); retry later.
        public static let serverUnavailable = Code("server_unavailable", .retryable)
        /// The server could not be reached (offline, timed out, connection refused or
        /// lost); ``LatchkeyClientError/reasons`` names the transport failure.
        public static let networkUnavailable = Code("network_unavailable", .retryable)
        /// The token store cannot be used right now: the device is locked (Keychain items
        /// protected by a data-protection class) or another process held the store's
        /// lock too long (reason `lock_timeout`); retry later.
        public static let tokenStoreLocked = Code("token_store_locked", .retryable)
        /// The link's token (a reset, sign-up or address change link) is unknown, expired or
        /// used: request a new link.
        public static let invalidToken = Code("invalid_token", .needsUserAction)
        /// The new password breaks a rule; ``LatchkeyClientError/reasons`` says which.
        public static let weakPassword = Code("weak_password", .needsUserAction)
        /// The email address is not a valid address.
        public static let invalidEmail = Code("invalid_email", .needsUserAction)
        /// Wrong email or password.
        public static let invalidCredentials = Code("invalid_credentials", .needsUserAction)
        /// There is no session, or the server ended it (refresh token rejected, revoked,
        /// or every login ended by a password reset): sign in again.
        public static let sessionExpired = Code("session_expired", .needsUserAction)
        /// A sign-in did not complete: the server or the person refused it, or its
        /// response failed a check; ``LatchkeyClientError/reasons`` says which
        /// (`access_denied`, `state_mismatch`, `issuer_mismatch`, `invalid_grant`, …).
        public static let authorizationFailed = Code("authorization_failed", .needsUserAction)
        /// The person closed the sign-in window before finishing.
        public static let signInCancelled = Code("sign_in_cancelled", .needsUserAction)
        /// The person did not pass the device's own check (Face ID, Touch ID, passcode).
        public static let userAuthenticationFailed = Code("user_authentication_failed", .needsUserAction)
        /// The saved sign-in is behind Face ID, Touch ID or the passcode, and the person has
        /// not passed that check yet: offer a button that calls
        /// ``AuthSession/authenticate()``. No call of the SDK ever asks by itself.
        public static let userAuthenticationRequired = Code("user_authentication_required", .needsUserAction)
        /// An opened link is not a valid link of the app (``AccountLinkParser``);
        /// ``LatchkeyClientError/reasons`` says why.
        public static let invalidLink = Code("invalid_link", .needsUserAction)
        /// An account change (password, address, deletion) needs a recent sign-in or the
        /// current password, and the request brought neither: ask the person for their
        /// current password (and send it as `currentPassword`) or to sign in again.
        public static let reauthenticationRequired = Code("reauthentication_required", .needsUserAction)
        /// The password was right, and the account's second factor was missing or wrong: ask
        /// for the code from the authenticator app (or a recovery code) and send it too. The
        /// server's `invalid_otp` / Directus's `INVALID_OTP`.
        public static let invalidOTP = Code("invalid_otp", .needsUserAction)
        /// The server refused a passkey, or the device could not make or use one: a check of
        /// the ceremony failed (``LatchkeyClientError/reasons`` has the server's reason, such as
        /// `origin_not_allowed` or `challenge_not_found`), a passkey sign-in was refused (the
        /// server answers every cause alike), or the platform failed (`platform_failed`,
        /// `not_interactive`, …). Try again, or sign in another way.
        public static let passkeyRefused = Code("passkey_refused", .needsUserAction)
        /// The passkey just made is registered already (to this account or another one): sign
        /// in with it instead. Also what the platform says when it holds one of the account's
        /// passkeys (`matched_excluded_credential`).
        public static let passkeyExists = Code("passkey_exists", .needsUserAction)
        /// The passkey is no longer on the account (removed from another device): reload the list.
        public static let passkeyNotFound = Code("passkey_not_found", .needsUserAction)
        /// The passkey is the account's last way to sign in (no password, no other passkey):
        /// the server keeps it until another way exists.
        public static let lastSignInMethod = Code("last_sign_in_method", .needsUserAction)
        /// The person dismissed the system's passkey sheet, or the app cancelled the request
        /// (an AutoFill request ends so when the form goes away): show nothing.
        public static let passkeyCancelled = Code("passkey_cancelled", .needsUserAction)
        /// The server's certificate was not trusted: it failed the system's TLS checks, or
        /// its public key is not among the pinned ones (``PublicKeyPins``) — someone on this
        /// network may be intercepting, or the server's keys changed without the app.
        /// Another network may work; ``LatchkeyClientError/reasons`` names the failure.
        public static let untrustedServer = Code("untrusted_server", .needsUserAction)
        /// The stored sign-in cannot be read (corrupted file); signing in again fixes it.
        public static let tokenStoreCorrupted = Code("token_store_corrupted", .needsUserAction)
        /// The server rejected the request as malformed or not allowed (a client bug or
        /// a misconfiguration such as a reset URL not on the server's allow list).
        public static let requestRejected = Code("request_rejected", .fatal)
        /// The server answered with something this SDK does not understand.
        public static let unexpectedResponse = Code("unexpected_response", .fatal)
        /// The server does not take sign-ups (``Registration/register(email:password:)``): only
        /// its operator creates accounts.
        public static let registrationClosed = Code("registration_closed", .fatal)
        /// The SDK was configured or called with invalid values.
        public static let invalidConfiguration = Code("invalid_configuration", .fatal)
        /// Reading or writing the token store failed (permissions, disk full).
        public static let tokenStoreFailed = Code("token_store_failed", .fatal)

        /// Every code, for exhaustive checks such as "each has a message in each language".
        public static let all: [Code] = [
            .rateLimited, .serverUnavailable, .networkUnavailable, .tokenStoreLocked, .invalidToken,
            .weakPassword, .invalidEmail, .invalidCredentials, .sessionExpired, .authorizationFailed,
            .signInCancelled, .userAuthenticationFailed, .userAuthenticationRequired, .invalidLink, .reauthenticationRequired,
            .untrustedServer, .tokenStoreCorrupted, .requestRejected, .unexpectedResponse, .registrationClosed,
            .invalidConfiguration, .tokenStoreFailed, .invalidOTP, .passkeyRefused, .passkeyExists, .passkeyNotFound,
            .lastSignInMethod, .passkeyCancelled,
        ]
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// Machine-readable details: password rule codes (`too_short`, …) for
    /// `weak_password`, the rejection reason (`wrong_host`, …) for `invalid_link`, the
    /// server's or the platform's reason for `passkey_refused`.
    public let reasons: [String]
    /// The HTTP status of the server reply this error came from, if any.
    public let status: Int?
    /// The server's own error code (`invalid_token`, `INVALID_CREDENTIALS`, …), for logs.
    public let serverCode: String?
    /// How long the server asked to wait before trying again: the `Retry-After` of a `429`
    /// or `503` reply (RFC 9110 §10.2.3, seconds or a date), in whole seconds, never
    /// negative and at most a day. Nil when the reply had none, or one that is neither
    /// form. ``message(for:)`` says it in words for `rate_limited` and `server_unavailable`.
    public let retryAfter: Duration?

    /// Creates an error with a stable code and optional details.
    public init(
        _ code: Code, reasons: [String] = [], status: Int? = nil, serverCode: String? = nil, retryAfter: Duration? = nil
    ) {
        self.code = code
        self.reasons = reasons
        self.status = status
        self.serverCode = serverCode
        self.retryAfter = retryAfter
    }

    /// What an app should do about this error.
    public var kind: Kind { code.kind }

    /// A sentence for a person, in `language`, saying what happened and what to do; never
    /// technical, never containing a secret. For `weak_password` it names each broken rule;
    /// for `rate_limited` and `server_unavailable` with a ``retryAfter`` it says how long to
    /// wait, rounded up to a step a person can act on ("Too many attempts. Please try again
    /// in 3 minutes.").
    public func message(for language: ClientLanguage) -> String {
        let wait = retryAfter.flatMap(RetryWait.init(atLeast:))
        let waiting = wait.flatMap { ClientErrorText.message(for: code, waiting: $0, in: language) }
        let base = waiting ?? ClientErrorText.message(for: code, in: language) ?? ClientErrorText.fallback(in: language)
        let details = reasons.compactMap { ClientErrorText.reason($0, in: language) }
        return ([base] + details).joined(separator: " ")
    }

    /// The code, status, server code, retry-after and reasons: fit for a log line.
    public var description: String {
        var parts = ["\(code) (\(kind))"]
        if let status { parts.append("status \(status)") }
        if let serverCode { parts.append("server code \(serverCode)") }
        if let retryAfter { parts.append("retry after \(retryAfter.components.seconds) s") }
        if !reasons.isEmpty { parts.append("reasons \(reasons.joined(separator: ","))") }
        return "LatchkeyClientError: " + parts.joined(separator: ", ")
    }
}

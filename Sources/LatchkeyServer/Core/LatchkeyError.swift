/// The one error type of the server module. Each error has a stable machine-readable
/// ``code`` (what clients and tests match on), a human ``message`` that never contains a
/// secret, and an optional underlying cause for logs.
///
/// New codes can be added without breaking callers: the codes are static members of a
/// struct, not cases of a public enum.
public struct LatchkeyError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_token`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request body is not valid JSON of the expected shape.
        public static let invalidJSON = Code("invalid_json")
        /// A field is missing or has the wrong form.
        public static let invalidRequest = Code("invalid_request")
        /// The email address is not a valid address.
        public static let invalidEmail = Code("invalid_email")
        /// The `reset_url` is not on the configured allow list.
        public static let resetURLNotAllowed = Code("reset_url_not_allowed")
        /// Login failed: unknown account, wrong password or disabled account (never which).
        public static let invalidCredentials = Code("invalid_credentials")
        /// The reset or refresh token is unknown, expired, used, superseded or revoked (one
        /// code for all causes).
        public static let invalidToken = Code("invalid_token")
        /// The new password does not meet the policy.
        public static let weakPassword = Code("weak_password")
        /// Too many requests from this client.
        public static let rateLimited = Code("rate_limited")
        /// The request body exceeds the size limit.
        public static let payloadTooLarge = Code("payload_too_large")
        /// The request body is not `application/json`.
        public static let unsupportedMediaType = Code("unsupported_media_type")
        /// No route has this path.
        public static let notFound = Code("not_found")
        /// The route exists but not with this method.
        public static let methodNotAllowed = Code("method_not_allowed")
        /// An account with this email already exists.
        public static let accountExists = Code("account_exists")
        /// No account has this email.
        public static let accountNotFound = Code("account_not_found")
        /// A redirect URI is not one of the accepted forms (https, private-use scheme, loopback).
        public static let invalidRedirectURI = Code("invalid_redirect_uri")
        /// An OAuth client with this id already exists.
        public static let clientExists = Code("client_exists")
        /// No OAuth client has this id.
        public static let clientNotFound = Code("client_not_found")
        /// OAuth: the client could not be authenticated (unknown, wrong secret, no secret).
        public static let invalidClient = Code("invalid_client")
        /// OAuth: the authorization code or refresh token is invalid, expired, used, revoked,
        /// or was issued to another client or redirect URI, or the PKCE verifier is wrong.
        public static let invalidGrant = Code("invalid_grant")
        /// OAuth: the client may not use this grant type.
        public static let unauthorizedClient = Code("unauthorized_client")
        /// OAuth: the grant type is not one the server supports.
        public static let unsupportedGrantType = Code("unsupported_grant_type")
        /// OAuth: a requested scope is unknown or not allowed for the client.
        public static let invalidScope = Code("invalid_scope")
        /// OAuth: the response type is not `code`.
        public static let unsupportedResponseType = Code("unsupported_response_type")
        /// The request needs a signed-in browser (a session cookie) or a valid form token.
        public static let forbidden = Code("forbidden")
        /// The configuration is invalid; the message names the setting.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The database failed or holds unexpected data.
        public static let storage = Code("storage_error")
        /// Sending mail failed.
        public static let mailDelivery = Code("mail_delivery_failed")
        /// A mail address or header value would allow header injection.
        public static let invalidMailHeader = Code("invalid_mail_header")
        /// The HTTP listener could not start or failed.
        public static let httpServer = Code("http_server_error")
        /// The shared rate limiter (Redis) is unreachable or refused; the request is refused
        /// with 503 and `Retry-After` unless the server is configured to fail open.
        public static let rateLimiterUnavailable = Code("rate_limiter_unavailable")
        /// Something failed that the client cannot fix.
        public static let internalError = Code("internal_error")
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A message fit for a person; never contains a secret.
    public let message: String
    /// Further detail for the logs (e.g. a library error string); never sent to clients.
    public let detail: String?
    /// Machine-readable reasons sent with the error (e.g. `too_short` for `weak_password`).
    public let reasons: [String]

    /// Creates an error with a stable code, a safe message, optional reasons for the client
    /// and optional detail for the logs.
    public init(_ code: Code, _ message: String, reasons: [String] = [], detail: String? = nil) {
        self.code = code
        self.message = message
        self.reasons = reasons
        self.detail = detail
    }

    public var description: String {
        detail.map { "\(code): \(message) (\($0))" } ?? "\(code): \(message)"
    }
}

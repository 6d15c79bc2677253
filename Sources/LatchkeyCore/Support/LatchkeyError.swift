/// The one error type of the server module. Each error has a stable machine-readable
/// ``code`` (what clients and tests match on), a human ``message`` that never contains a
/// secret, and an optional underlying cause for logs.
///
/// New codes can be added without breaking callers: the codes are static members of a
/// struct, not cases of a public enum.
package struct LatchkeyError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_token`.
        package let rawValue: String
        /// What kind of failure it is: whose fault, and how it maps to a status.
        package let kind: Kind
        private init(_ rawValue: String, _ kind: Kind) {
            self.rawValue = rawValue
            self.kind = kind
        }
        package var description: String { rawValue }

        package static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// The request body is not valid JSON of the expected shape.
        package static let invalidJSON = Code("invalid_json", .badRequest)
        /// A field is missing or has the wrong form.
        package static let invalidRequest = Code("invalid_request", .badRequest)
        /// The email address is not a valid address.
        package static let invalidEmail = Code("invalid_email", .badRequest)
        /// The `reset_url` is not on the configured allow list.
        package static let resetURLNotAllowed = Code("reset_url_not_allowed", .badRequest)
        /// Login failed: unknown account, wrong password or disabled account (never which).
        package static let invalidCredentials = Code("invalid_credentials", .unauthorized)
        /// The reset or refresh token is unknown, expired, used, superseded or revoked (one
        /// code for all causes).
        package static let invalidToken = Code("invalid_token", .badRequest)
        /// The new password does not meet the policy.
        package static let weakPassword = Code("weak_password", .badRequest)
        /// Too many requests from this client.
        package static let rateLimited = Code("rate_limited", .tooManyRequests)
        /// The request body exceeds the size limit.
        package static let payloadTooLarge = Code("payload_too_large", .payloadTooLarge)
        /// The request body is not `application/json`.
        package static let unsupportedMediaType = Code("unsupported_media_type", .unsupportedMediaType)
        /// No route has this path.
        package static let notFound = Code("not_found", .notFound)
        /// The route exists but not with this method.
        package static let methodNotAllowed = Code("method_not_allowed", .methodNotAllowed)
        /// An account with this email already exists.
        package static let accountExists = Code("account_exists", .conflict)
        /// No account has this email.
        package static let accountNotFound = Code("account_not_found", .notFound)
        /// A redirect URI is not one of the accepted forms (https, private-use scheme, loopback).
        package static let invalidRedirectURI = Code("invalid_redirect_uri", .badRequest)
        /// An OAuth client with this id already exists.
        package static let clientExists = Code("client_exists", .conflict)
        /// No OAuth client has this id.
        package static let clientNotFound = Code("client_not_found", .notFound)
        /// OAuth: the client could not be authenticated (unknown, wrong secret, no secret).
        package static let invalidClient = Code("invalid_client", .unauthorized)
        /// OAuth: the authorization code or refresh token is invalid, expired, used, revoked,
        /// or was issued to another client or redirect URI, or the PKCE verifier is wrong.
        package static let invalidGrant = Code("invalid_grant", .badRequest)
        /// OAuth: the client authenticated but may not use this endpoint (introspection is for
        /// resource servers only); `unauthorized_client` with 403 on the wire.
        package static let clientNotAllowed = Code("client_not_allowed", .forbidden)
        /// OAuth: the client may not use this grant type.
        package static let unauthorizedClient = Code("unauthorized_client", .badRequest)
        /// OAuth: the grant type is not one the server supports.
        package static let unsupportedGrantType = Code("unsupported_grant_type", .badRequest)
        /// OAuth: a requested scope is unknown or not allowed for the client.
        package static let invalidScope = Code("invalid_scope", .badRequest)
        /// OAuth: the response type is not `code`.
        package static let unsupportedResponseType = Code("unsupported_response_type", .badRequest)
        /// OpenID Connect: the authorization request carries a request object (`request`).
        package static let requestNotSupported = Code("request_not_supported", .badRequest)
        /// OpenID Connect: the authorization request names a `request_uri`.
        package static let requestURINotSupported = Code("request_uri_not_supported", .badRequest)
        /// A protected resource: the request presents no credentials at all (RFC 6750 §3.1:
        /// answered with a bare challenge, no error code).
        package static let authenticationRequired = Code("authentication_required", .unauthorized)
        /// A protected resource: the access token lacks a scope the resource requires.
        package static let insufficientScope = Code("insufficient_scope", .forbidden)
        /// The request needs a signed-in browser (a session cookie) or a valid form token.
        package static let forbidden = Code("forbidden", .forbidden)
        /// An account change needs a recent sign-in or the current password, and the request
        /// brings neither (see ``Reauthentication``).
        package static let reauthenticationRequired = Code("reauthentication_required", .forbidden)
        /// The password was right, and the account's second factor is missing or wrong (a
        /// code from its authenticator app or a recovery code): Directus's `INVALID_OTP`.
        package static let invalidOTP = Code("invalid_otp", .unauthorized)
        /// A passkey's registration response failed a check of the ceremony; the reason (a
        /// WebAuthn error code such as `origin_not_allowed`) travels in ``LatchkeyError/reasons``.
        package static let invalidPasskey = Code("invalid_passkey", .badRequest)
        /// The passkey's credential ID is registered already, to this account or another.
        package static let passkeyExists = Code("passkey_exists", .conflict)
        /// The account has as many passkeys as it may have.
        package static let passkeyLimitReached = Code("passkey_limit_reached", .conflict)
        /// The account has no passkey with this id.
        package static let passkeyNotFound = Code("passkey_not_found", .notFound)
        /// The change would leave the account without a way to sign in (no password, no other passkey).
        package static let lastSignInMethod = Code("last_sign_in_method", .conflict)
        /// The thing the request names (a login of the account) is not there.
        package static let loginNotFound = Code("login_not_found", .notFound)
        /// The configuration is invalid; the message names the setting.
        package static let invalidConfiguration = Code("invalid_configuration", .internal)
        /// The database failed or holds unexpected data.
        package static let storage = Code("storage_error", .internal)
        /// The database cannot serve the request now but may in a moment: unreachable, its
        /// connection lost, a statement past its timeout, or every connection (or the write
        /// lock) still in use after the wait. 503 with `Retry-After`, never a 500.
        package static let storageUnavailable = Code("storage_unavailable", .unavailable)
        /// Sending mail failed.
        package static let mailDelivery = Code("mail_delivery_failed", .internal)
        /// A mail address or header value would allow header injection.
        package static let invalidMailHeader = Code("invalid_mail_header", .internal)
        /// The HTTP listener could not start or failed.
        package static let httpServer = Code("http_server_error", .internal)
        /// The shared rate limiter (Redis) is unreachable or refused; the request is refused
        /// with 503 and `Retry-After` unless the server is configured to fail open.
        package static let rateLimiterUnavailable = Code("rate_limiter_unavailable", .unavailable)
        /// The request's `Transfer-Encoding` names a coding the server does not implement
        /// (anything but `chunked`, RFC 9112 §6.1).
        package static let unsupportedTransferCoding = Code("unsupported_transfer_coding", .notImplemented)
        /// Every request worker is busy and the queue in front of them is full; the request is
        /// refused with 503 and `Retry-After` before any work is done for it.
        package static let serverBusy = Code("server_busy", .unavailable)
        /// Something failed that the client cannot fix.
        package static let internalError = Code("internal_error", .internal)
    }

    /// The kind of a failure: whose fault it is and how urgent. The HTTP layer maps each kind
    /// to one status (``Code/kind``); the domain never names a status.
    package enum Kind: Sendable, Hashable {
        /// The request is malformed or refers to something unusable (400).
        case badRequest
        /// The caller did not prove who it is (401).
        case unauthorized
        /// The caller may not do this (403).
        case forbidden
        /// Nothing is there (404).
        case notFound
        /// The route exists, the method does not (405).
        case methodNotAllowed
        /// It exists already (409).
        case conflict
        /// The request is too large (413).
        case payloadTooLarge
        /// The body has the wrong media type (415).
        case unsupportedMediaType
        /// A limit was reached; retry after ``LatchkeyError/retryAfter`` seconds (429).
        case tooManyRequests
        /// The request needs something the server does not implement (501).
        case notImplemented
        /// A dependency or a bounded resource is unavailable for now; retry later (503).
        case unavailable
        /// A fault on the server's side (500); its message is not shown to clients.
        case `internal`
    }

    /// Why a client error happened, where the server must react to the reason (log a
    /// replay as a warning, say which check failed in the logs) and not only to the code.
    package struct Cause: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, as logged.
        package let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// A refresh token was presented again after it had been rotated: its family is revoked.
        package static let refreshTokenReused = Cause("refresh_token_reused")
        /// An authorization code was presented again: the tokens issued from it are revoked.
        package static let authorizationCodeReplayed = Cause("code_replayed")
        /// An authorization code was presented by the wrong client, redirect URI or PKCE
        /// verifier; it is spent.
        package static let authorizationCodeMismatch = Cause("code_mismatch")
        /// The authorization request names a client that is not registered.
        package static let unknownClient = Cause("unknown_client")
        /// The authorization request names a redirect URI not registered for its client.
        package static let unregisteredRedirectURI = Cause("unregistered_redirect_uri")
        /// A route of the signed-in account refused the request's access token (absent, not
        /// valid now): its answer challenges with `WWW-Authenticate: Bearer`, whatever the shape.
        package static let accessTokenRefused = Cause("access_token_refused")

        /// Whether this cause is a token replay, which is logged as a warning.
        package var isTokenReplay: Bool { self == .refreshTokenReused || self == .authorizationCodeReplayed }
    }

    /// What went wrong, as a stable code.
    package let code: Code
    /// A message fit for a person; never contains a secret.
    package let message: String
    /// Further detail for the logs (e.g. a library error string); never sent to clients.
    package let detail: String?
    /// Machine-readable reasons sent with the error (e.g. `too_short` for `weak_password`).
    package let reasons: [String]
    /// Seconds after which a retry may succeed (sent as `Retry-After`), for failures that pass.
    package let retryAfter: Int?
    /// Why it happened, where that matters to the server (never sent to clients).
    package let cause: Cause?

    /// Whether the failure is the client's to fix, so its message may be shown; server-side
    /// failures get a generic message.
    package var isClientError: Bool { code.kind != .internal && code.kind != .unavailable }

    /// Creates an error with a stable code, a safe message, optional reasons for the client
    /// and optional detail for the logs.
    package init(
        _ code: Code, _ message: String, reasons: [String] = [], retryAfter: Int? = nil, cause: Cause? = nil, detail: String? = nil
    ) {
        self.code = code
        self.message = message
        self.reasons = reasons
        self.retryAfter = retryAfter
        self.cause = cause
        self.detail = detail
    }

    /// The database is busy or out of reach for now (``Code/storageUnavailable``); the client
    /// may retry after `retryAfter` seconds.
    package static func storageUnavailable(_ message: String, retryAfter: Int = 1, detail: String? = nil) -> LatchkeyError {
        LatchkeyError(.storageUnavailable, message, retryAfter: retryAfter, detail: detail)
    }

    /// The shared rate limiter (Redis) failed; the client may retry in five seconds.
    package static func rateLimiterUnavailable(_ message: String, detail: String? = nil) -> LatchkeyError {
        LatchkeyError(.rateLimiterUnavailable, message, retryAfter: 5, detail: detail)
    }

    /// Too many attempts: come back after `retryAfter` seconds. The message says how long in
    /// words, rounded up to a step a person can act on ("Please try again in 2 minutes."), in
    /// English like every JSON message; pages say it in the person's language from the same
    /// ``RateLimitText``.
    package static func rateLimited(retryAfter: Int) -> LatchkeyError {
        LatchkeyError(.rateLimited, SupportedLanguage.en.catalogue.rateLimit.message(retryAfter: retryAfter), retryAfter: retryAfter)
    }

    /// The same error with another cause (the code, message and everything else kept).
    package func with(cause: Cause) -> LatchkeyError {
        LatchkeyError(code, message, reasons: reasons, retryAfter: retryAfter, cause: cause, detail: detail)
    }

    package var description: String {
        let extra = [cause?.rawValue, detail].compactMap { $0 }
        return extra.isEmpty ? "\(code): \(message)" : "\(code): \(message) (\(extra.joined(separator: "; ")))"
    }
}

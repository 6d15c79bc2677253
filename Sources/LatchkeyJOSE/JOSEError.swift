/// The one error type of the JOSE module. Each error has a stable ``code`` to match on, a
/// ``message`` that never contains key material or token contents, and an optional
/// ``detail`` for logs.
///
/// Codes are static members of a struct, not cases of a public enum, so new codes can be
/// added without breaking callers.
public struct JOSEError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_signature`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// The wire form, as ``rawValue``.
        public var description: String { rawValue }

        /// The token is not three base64url parts, or a part is not valid JSON of the expected shape.
        public static let malformed = Code("malformed_token")
        /// The token is longer than ``JWS/maximumCompactLength``.
        public static let tooLarge = Code("token_too_large")
        /// The `alg` is not ES256, EdDSA or RS256 (this includes `none` and every HMAC algorithm).
        public static let unsupportedAlgorithm = Code("unsupported_algorithm")
        /// The `alg` is supported but not allowed for the selected key.
        public static let algorithmNotAllowed = Code("algorithm_not_allowed")
        /// No key in the set matches the token's `kid` (or the set is ambiguous without one).
        public static let unknownKey = Code("unknown_key")
        /// The signature does not verify.
        public static let invalidSignature = Code("invalid_signature")
        /// The header lists a `crit` extension this implementation does not understand.
        public static let unsupportedCriticalHeader = Code("unsupported_critical_header")
        /// A JWK is missing members, has an unsupported `kty`/`crv`, or its key material is invalid.
        public static let invalidKey = Code("invalid_key")
        /// The `exp` claim is in the past (beyond the leeway).
        public static let expired = Code("token_expired")
        /// The `nbf` claim is in the future (beyond the leeway).
        public static let notYetValid = Code("token_not_yet_valid")
        /// The `iat` claim is in the future (beyond the leeway).
        public static let issuedInFuture = Code("token_issued_in_future")
        /// The `iss` claim is missing or not the expected issuer.
        public static let invalidIssuer = Code("invalid_issuer")
        /// The `aud` claim is missing or does not contain the expected audience.
        public static let invalidAudience = Code("invalid_audience")
        /// A claim that validation requires (such as `exp`) is missing.
        public static let missingClaim = Code("missing_claim")
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A message fit for a person; never contains a secret.
    public let message: String
    /// Further detail for the logs; never contains a secret.
    public let detail: String?

    /// Creates an error with a stable code, a safe message and optional log detail.
    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    /// `code: message (detail)`, for logs.
    public var description: String {
        detail.map { "\(code): \(message) (\($0))" } ?? "\(code): \(message)"
    }
}

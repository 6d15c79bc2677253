/// The one error type of the JOSE module. Each error has a stable ``code`` to match on, a
/// ``message`` that never contains key material or token contents, and an optional
/// ``detail`` for logs.
///
/// Codes are static members of a struct, not cases of a public enum, so new codes can be
/// added without breaking callers.
package struct JOSEError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_signature`.
        package let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// The wire form, as ``rawValue``.
        package var description: String { rawValue }

        /// The token is not three base64url parts, or a part is not valid JSON of the expected shape.
        package static let malformed = Code("malformed_token")
        /// The token is longer than ``JWS/maximumCompactLength``.
        package static let tooLarge = Code("token_too_large")
        /// The `alg` is not ES256, EdDSA or RS256 (this includes `none` and every HMAC algorithm).
        package static let unsupportedAlgorithm = Code("unsupported_algorithm")
        /// The `alg` is supported but not allowed for the selected key.
        package static let algorithmNotAllowed = Code("algorithm_not_allowed")
        /// No key in the set matches the token's `kid` (or the set is ambiguous without one).
        package static let unknownKey = Code("unknown_key")
        /// The signature does not verify.
        package static let invalidSignature = Code("invalid_signature")
        /// The header lists a `crit` extension this implementation does not understand.
        package static let unsupportedCriticalHeader = Code("unsupported_critical_header")
        /// A JWK is missing members, has an unsupported `kty`/`crv`, or its key material is invalid.
        package static let invalidKey = Code("invalid_key")
        /// The `exp` claim is in the past (beyond the leeway).
        package static let expired = Code("token_expired")
        /// The `nbf` claim is in the future (beyond the leeway).
        package static let notYetValid = Code("token_not_yet_valid")
        /// The `iat` claim is in the future (beyond the leeway).
        package static let issuedInFuture = Code("token_issued_in_future")
        /// The `iss` claim is missing or not the expected issuer.
        package static let invalidIssuer = Code("invalid_issuer")
        /// The `aud` claim is missing or does not contain the expected audience.
        package static let invalidAudience = Code("invalid_audience")
        /// A claim that validation requires (such as `exp`) is missing.
        package static let missingClaim = Code("missing_claim")
    }

    /// What went wrong, as a stable code.
    package let code: Code
    /// A message fit for a person; never contains a secret.
    package let message: String
    /// Further detail for the logs; never contains a secret.
    package let detail: String?

    /// Creates an error with a stable code, a safe message and optional log detail.
    package init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    /// `code: message (detail)`, for logs.
    package var description: String {
        detail.map { "\(code): \(message) (\($0))" } ?? "\(code): \(message)"
    }
}

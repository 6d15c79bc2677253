/// The one error type of the crypto module. Each error has a stable ``code`` to match on,
/// a ``message`` that never contains a secret, and an optional ``detail`` (for example the
/// C library's error string) for logs.
///
/// Codes are static members of a struct, not cases of a public enum, so new codes can be
/// added without breaking callers.
package struct LatchkeyCryptoError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_parameters`.
        package let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// The wire form, as ``rawValue``.
        package var description: String { rawValue }

        /// A cost parameter, salt length or output length is outside what is allowed.
        package static let invalidParameters = Code("invalid_parameters")
        /// libargon2 could not compute a hash (for example it could not allocate memory).
        package static let argon2Failure = Code("argon2_failure")
        /// Key material has the wrong length, is not on the curve, or does not match its
        /// public part.
        package static let invalidKey = Code("invalid_key")
        /// A TLS connection could not be made, or failed (``TLSClientStream``).
        package static let tlsFailure = Code("tls_failure")
        /// A ``SecretBox`` text was sealed under another key.
        package static let wrongKey = Code("wrong_key")
        /// A ``SecretBox`` text is malformed, was changed, or was sealed for another purpose
        /// or owner.
        package static let sealedSecretRefused = Code("sealed_secret_refused")
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

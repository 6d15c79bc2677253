/// The one error type of the crypto module. Each error has a stable ``code`` to match on,
/// a ``message`` that never contains a secret, and an optional ``detail`` (for example the
/// C library's error string) for logs.
///
/// Codes are static members of a struct, not cases of a public enum, so new codes can be
/// added without breaking callers.
public struct LatchkeyCryptoError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `invalid_parameters`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// The wire form, as ``rawValue``.
        public var description: String { rawValue }

        /// A cost parameter, salt length or output length is outside what is allowed.
        public static let invalidParameters = Code("invalid_parameters")
        /// libargon2 could not compute a hash (for example it could not allocate memory).
        public static let argon2Failure = Code("argon2_failure")
        /// Key material has the wrong length, is not on the curve, or does not match its
        /// public part.
        public static let invalidKey = Code("invalid_key")
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

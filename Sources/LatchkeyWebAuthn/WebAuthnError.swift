/// The one error type of the WebAuthn module. Each error has a stable ``code`` to match on
/// (and, later, to answer with), a ``message`` fit for a person that never quotes the bytes
/// that failed, and an optional ``detail`` for logs.
///
/// Codes are static members of a struct, not cases of a public enum, so new codes can be
/// added without breaking callers.
package struct WebAuthnError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for a kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The wire form, e.g. `origin_not_allowed`.
        package let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// The wire form, as ``rawValue``.
        package var description: String { rawValue }

        // MARK: CBOR and COSE

        /// The bytes are not well-formed CBOR: truncated, trailing bytes, a reserved
        /// additional-information value, a text string that is not UTF-8.
        package static let invalidCBOR = Code("invalid_cbor")
        /// The CBOR is well-formed but not in the canonical form WebAuthn requires: an
        /// indefinite length, or an integer or length not encoded in its shortest form.
        package static let nonCanonicalCBOR = Code("non_canonical_cbor")
        /// The CBOR uses what WebAuthn never needs: a tag, a floating-point number, a simple
        /// value other than false, true and null, or a map key that is not an integer or text.
        package static let unsupportedCBOR = Code("unsupported_cbor")
        /// A CBOR map names one key twice.
        package static let duplicateMapKey = Code("duplicate_map_key")
        /// The CBOR is longer, deeper or has more items than ``CBORLimits`` allow.
        package static let cborLimitExceeded = Code("cbor_limit_exceeded")
        /// The COSE key is not a well-formed EC2 P-256, OKP Ed25519 or RSA public key with
        /// the parameters WebAuthn allows, or its key material is not a valid key.
        package static let invalidCredentialKey = Code("invalid_credential_key")
        /// The key's COSE algorithm is not one this relying party accepts.
        package static let unsupportedAlgorithm = Code("unsupported_algorithm")

        // MARK: The response's shape

        /// The response JSON is not the W3C `PublicKeyCredential` shape: a missing or
        /// mistyped member, a value that is not base64url, the wrong `type`.
        package static let malformedResponse = Code("malformed_response")
        /// A member of the response is longer than its limit (``WebAuthnLimits``).
        package static let responseTooLarge = Code("response_too_large")
        /// The authenticator data is truncated, has trailing bytes, lacks attested
        /// credential data where it is required (or carries it where it must not).
        package static let invalidAuthenticatorData = Code("invalid_authenticator_data")
        /// The client data JSON is not a JSON object of the shape §5.8.1 describes.
        package static let invalidClientData = Code("invalid_client_data")

        // MARK: Ceremony checks (W3C Web Authentication Level 3 §7.1, §7.2)

        /// `clientDataJSON.type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
        package static let wrongCeremonyType = Code("wrong_ceremony_type")
        /// `clientDataJSON.challenge` is not the challenge this ceremony was given.
        package static let challengeMismatch = Code("challenge_mismatch")
        /// `clientDataJSON.origin` is not one of the relying party's origins.
        package static let originNotAllowed = Code("origin_not_allowed")
        /// The ceremony ran in a cross-origin frame (`crossOrigin` true or a `topOrigin`),
        /// which Latchkey does not allow.
        package static let crossOriginRefused = Code("cross_origin_refused")
        /// The authenticator data's `rpIdHash` is not SHA-256 of the relying party's ID.
        package static let rpIDMismatch = Code("rp_id_mismatch")
        /// The UP (user present) flag is not set.
        package static let userNotPresent = Code("user_not_present")
        /// The UV (user verified) flag is not set.
        package static let userNotVerified = Code("user_not_verified")
        /// The BS (backed up) flag is set without BE (backup eligible), which §6.1.3 forbids.
        package static let invalidBackupFlags = Code("invalid_backup_flags")
        /// The BE flag differs from the one the credential was registered with (§7.2).
        package static let backupEligibilityChanged = Code("backup_eligibility_changed")
        /// The attestation statement format is not one Latchkey verifies (`none`, or
        /// `packed` self attestation).
        package static let unsupportedAttestation = Code("unsupported_attestation")
        /// The attestation statement does not verify (a `none` statement that is not empty,
        /// a `packed` self-attestation signature that is wrong or names another algorithm).
        package static let invalidAttestation = Code("invalid_attestation")
        /// The credential ID is longer than 1023 bytes (§7.1) or empty.
        package static let credentialIDTooLong = Code("credential_id_too_long")
        /// The response's credential ID is not the one its authenticator data or the stored
        /// credential names.
        package static let credentialIDMismatch = Code("credential_id_mismatch")
        /// The credential is not one of those the ceremony allowed (`allowCredentials`).
        package static let credentialNotAllowed = Code("credential_not_allowed")
        /// The assertion's user handle is missing where it is required (a discoverable
        /// sign-in), or is not the handle of the account owning the credential.
        package static let userHandleMismatch = Code("user_handle_mismatch")
        /// The assertion signature does not verify under the credential's public key.
        package static let invalidSignature = Code("invalid_signature")
    }

    /// What went wrong, as a stable code.
    package let code: Code
    /// A message fit for a person; never quotes the bytes that failed.
    package let message: String
    /// Further detail for the logs; never holds a secret.
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

/// The COSE signature algorithms (RFC 9053, RFC 8812) a passkey's public key may use with
/// Latchkey: what Apple, Google and Microsoft platform authenticators and security keys make.
package enum COSEAlgorithm: Int64, Sendable, Hashable, CaseIterable {
    /// ECDSA on P-256 with SHA-256; WebAuthn carries its signatures in DER.
    case es256 = -7
    /// EdDSA with Ed25519 (RFC 9053 §2.2; the only EdDSA curve accepted).
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8812 §2), for a modulus of 2048 to 8192 bits.
    case rs256 = -257

    /// The algorithm's name in the IANA COSE registry, for logs and documents.
    package var name: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .rs256: "RS256"
        }
    }
}

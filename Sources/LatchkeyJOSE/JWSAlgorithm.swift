/// The JWS signature algorithms Latchkey accepts (RFC 7518, RFC 8037).
///
/// There is deliberately no case for `none` or for the HMAC algorithms: a token naming
/// them cannot even be parsed into a header, so it is rejected before any key is chosen.
package enum JWSAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    /// ECDSA on P-256 with SHA-256; signatures are raw `r || s` (64 bytes).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (deterministic; OpenID Connect's mandatory ID token algorithm).
    case rs256 = "RS256"
}

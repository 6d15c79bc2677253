/// The protected header of a JWS (RFC 7515 §4.1) as Latchkey reads and writes it.
///
/// Decoding fails for a missing or unsupported `alg` (including `none` and `HS256`);
/// other unknown members are ignored unless listed in `crit`.
package struct JWSHeader: Sendable, Hashable, Codable {
    /// The signature algorithm.
    package var alg: JWSAlgorithm
    /// The key ID.
    package var kid: String?
    /// The media type of the whole token, e.g. `JWT` or `at+jwt`.
    package var typ: String?
    /// Extensions the recipient must understand; Latchkey understands none, so verification
    /// rejects any token that has this member.
    package var crit: [String]?

    /// Creates a header.
    package init(alg: JWSAlgorithm, kid: String? = nil, typ: String? = nil, crit: [String]? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
        self.crit = crit
    }
}

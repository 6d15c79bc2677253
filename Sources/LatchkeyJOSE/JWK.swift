package import LatchkeyCrypto
import Foundation

/// A JSON Web Key (RFC 7517) of type `EC` (P-256), `OKP` (Ed25519) or `RSA`.
///
/// Members are kept as their base64url strings so a key round-trips unchanged. The private
/// members (`d`, and an RSA key's `p`, `q`, `dp`, `dq`, `qi`) are ``Redacted``: they never
/// appear in `description` or `dump`, but they are encoded when the key is encoded, so encode
/// ``publicKey`` for anything published.
package struct JWK: Sendable, Hashable, Codable {
    /// The key type: `EC`, `OKP` or `RSA`.
    package var kty: String
    /// The curve for `EC` and `OKP` keys: `P-256` or `Ed25519`.
    package var crv: String?
    /// The x coordinate (`EC`) or the public key (`OKP`), base64url.
    package var x: String?
    /// The y coordinate (`EC`), base64url.
    package var y: String?
    /// The modulus (`RSA`), base64url.
    package var n: String?
    /// The public exponent (`RSA`), base64url.
    package var e: String?
    /// The private scalar (`EC`), seed (`OKP`) or private exponent (`RSA`), base64url; nil
    /// for a public key.
    package var d: Redacted<String>?
    /// An RSA private key's first prime factor, base64url.
    package var p: Redacted<String>?
    /// An RSA private key's second prime factor, base64url.
    package var q: Redacted<String>?
    /// An RSA private key's first factor CRT exponent, base64url.
    package var dp: Redacted<String>?
    /// An RSA private key's second factor CRT exponent, base64url.
    package var dq: Redacted<String>?
    /// An RSA private key's first CRT coefficient, base64url.
    package var qi: Redacted<String>?
    /// The key ID; Latchkey sets it to the RFC 7638 thumbprint.
    package var kid: String?
    /// The algorithm the key is meant for, if stated.
    package var alg: String?
    /// The intended use, `sig` for signing keys.
    package var use: String?

    /// Creates a JWK from its members.
    package init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil,
        e: String? = nil, d: Redacted<String>? = nil, p: Redacted<String>? = nil, q: Redacted<String>? = nil,
        dp: Redacted<String>? = nil, dq: Redacted<String>? = nil, qi: Redacted<String>? = nil,
        kid: String? = nil, alg: String? = nil, use: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.d = d
        self.p = p
        self.q = q
        self.dp = dp
        self.dq = dq
        self.qi = qi
        self.kid = kid
        self.alg = alg
        self.use = use
    }

    /// This key without its private members.
    package var publicKey: JWK {
        var key = self
        key.d = nil
        key.p = nil
        key.q = nil
        key.dp = nil
        key.dq = nil
        key.qi = nil
        return key
    }

    /// The RFC 7638 thumbprint: base64url(SHA-256) of the required public members in
    /// lexicographic order without whitespace. Throws ``JOSEError/Code/invalidKey`` if a
    /// required member is missing or the key type is unsupported.
    package func thumbprint() throws -> String {
        let members: [(String, String?)]
        switch kty {
        case "EC": members = [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        case "OKP": members = [("crv", crv), ("kty", kty), ("x", x)]
        case "RSA": members = [("e", e), ("kty", kty), ("n", n)]
        default: throw JOSEError(.invalidKey, "The JWK key type is not supported.")
        }
        var fields: [String] = []
        for (name, value) in members {
            guard let value else { throw JOSEError(.invalidKey, "The JWK lacks its \(name) member.") }
            fields.append("\(Self.jsonString(name)):\(Self.jsonString(value))")
        }
        let canonical = "{" + fields.joined(separator: ",") + "}"
        return Base64URL.encode(SHA256.hash(utf8: canonical))
    }

    /// A JSON string literal; the members are base64url or short names, but escaping keeps
    /// the canonical form correct for any input.
    private static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private enum CodingKeys: String, CodingKey {
        case kty, crv, x, y, n, e, d, p, q, dp, dq, qi, kid, alg, use
    }

    /// Decodes a JWK; unknown members are ignored.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kty = try container.decode(String.self, forKey: .kty)
        crv = try container.decodeIfPresent(String.self, forKey: .crv)
        x = try container.decodeIfPresent(String.self, forKey: .x)
        y = try container.decodeIfPresent(String.self, forKey: .y)
        n = try container.decodeIfPresent(String.self, forKey: .n)
        e = try container.decodeIfPresent(String.self, forKey: .e)
        d = try container.decodeIfPresent(String.self, forKey: .d).map(Redacted.init)
        p = try container.decodeIfPresent(String.self, forKey: .p).map(Redacted.init)
        q = try container.decodeIfPresent(String.self, forKey: .q).map(Redacted.init)
        dp = try container.decodeIfPresent(String.self, forKey: .dp).map(Redacted.init)
        dq = try container.decodeIfPresent(String.self, forKey: .dq).map(Redacted.init)
        qi = try container.decodeIfPresent(String.self, forKey: .qi).map(Redacted.init)
        kid = try container.decodeIfPresent(String.self, forKey: .kid)
        alg = try container.decodeIfPresent(String.self, forKey: .alg)
        use = try container.decodeIfPresent(String.self, forKey: .use)
    }

    /// Encodes the members that are present, including the private ones of a private key.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kty, forKey: .kty)
        try container.encodeIfPresent(crv, forKey: .crv)
        try container.encodeIfPresent(x, forKey: .x)
        try container.encodeIfPresent(y, forKey: .y)
        try container.encodeIfPresent(n, forKey: .n)
        try container.encodeIfPresent(e, forKey: .e)
        try container.encodeIfPresent(d?.exposed, forKey: .d)
        try container.encodeIfPresent(p?.exposed, forKey: .p)
        try container.encodeIfPresent(q?.exposed, forKey: .q)
        try container.encodeIfPresent(dp?.exposed, forKey: .dp)
        try container.encodeIfPresent(dq?.exposed, forKey: .dq)
        try container.encodeIfPresent(qi?.exposed, forKey: .qi)
        try container.encodeIfPresent(kid, forKey: .kid)
        try container.encodeIfPresent(alg, forKey: .alg)
        try container.encodeIfPresent(use, forKey: .use)
    }
}

package import LatchkeyCrypto
import Foundation

/// A JSON Web Key (RFC 7517) of type `EC` (P-256), `OKP` (Ed25519) or `RSA`.
///
/// Members are kept as their base64url strings so a key round-trips unchanged. The private
/// member `d` is ``Redacted``: it never appears in `description` or `dump`, but it is
/// encoded when the key is encoded, so encode ``publicKey`` for anything published.
package struct JWK: Sendable, Hashable, Codable {
    /// The key type: `EC`, `OKP` or `RSA`.
    package var kty: String
    /// The curve for `EC` and `OKP` keys: `P-256` or `Ed25519`.
    package var crv: String?
    /// The x coordinate (`EC`) or the package key (`OKP`), base64url.
    package var x: String?
    /// The y coordinate (`EC`), base64url.
    package var y: String?
    /// The modulus (`RSA`), base64url.
    package var n: String?
    /// The package exponent (`RSA`), base64url.
    package var e: String?
    /// The private scalar (`EC`) or seed (`OKP`), base64url; nil for a package key.
    package var d: Redacted<String>?
    /// The key ID; Latchkey sets it to the RFC 7638 thumbprint.
    package var kid: String?
    /// The algorithm the key is meant for, if stated.
    package var alg: String?
    /// The intended use, `sig` for signing keys.
    package var use: String?

    /// Creates a JWK from its members.
    package init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil,
        e: String? = nil, d: Redacted<String>? = nil, kid: String? = nil, alg: String? = nil,
        use: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.d = d
        self.kid = kid
        self.alg = alg
        self.use = use
    }

    /// This key without its private member.
    package var publicKey: JWK {
        var key = self
        key.d = nil
        return key
    }

    /// The RFC 7638 thumbprint: base64url(SHA-256) of the required package members in
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
        return Base64URL.encode(SHA256.hash(Data(canonical.utf8)))
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
        case kty, crv, x, y, n, e, d, kid, alg, use
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
        kid = try container.decodeIfPresent(String.self, forKey: .kid)
        alg = try container.decodeIfPresent(String.self, forKey: .alg)
        use = try container.decodeIfPresent(String.self, forKey: .use)
    }

    /// Encodes the members that are present, including `d` if this is a private key.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kty, forKey: .kty)
        try container.encodeIfPresent(crv, forKey: .crv)
        try container.encodeIfPresent(x, forKey: .x)
        try container.encodeIfPresent(y, forKey: .y)
        try container.encodeIfPresent(n, forKey: .n)
        try container.encodeIfPresent(e, forKey: .e)
        try container.encodeIfPresent(d?.exposed, forKey: .d)
        try container.encodeIfPresent(kid, forKey: .kid)
        try container.encodeIfPresent(alg, forKey: .alg)
        try container.encodeIfPresent(use, forKey: .use)
    }
}

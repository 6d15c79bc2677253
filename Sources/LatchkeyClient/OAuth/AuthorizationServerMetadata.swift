public import Foundation

/// An authorization server's metadata (RFC 8414): where its endpoints are and what it
/// supports, as published at `/.well-known/oauth-authorization-server`.
///
/// Promises: the published `issuer` is the expected one (RFC 8414 §3.3; a trailing `/`
/// is ignored), every endpoint is `https` (or `http` on a loopback host, for local
/// development), and the server supports PKCE `S256`. Anything else is refused with
/// ``LatchkeyClientError`` `invalid_configuration`, whose reason names the problem.
///
/// `Codable` in its RFC 8414 form (only the members below), so it can be stored with the
/// tokens (``StoredTokens/metadata``); decoding checks it again as above.
public struct AuthorizationServerMetadata: Sendable, Equatable, Codable {
    /// The issuer identifier; also the `iss` of ID tokens and authorization responses.
    public let issuer: URL
    /// Where the browser is sent to sign in.
    public let authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged for tokens.
    public let tokenEndpoint: URL
    /// Where tokens are revoked (RFC 7009), if the server offers it.
    public let revocationEndpoint: URL?
    /// Where resource servers introspect tokens (RFC 7662), if offered.
    public let introspectionEndpoint: URL?
    /// The OpenID Connect UserInfo endpoint, if offered.
    public let userinfoEndpoint: URL?
    /// The server's public keys (JWKS), if published.
    public let jwksURI: URL?
    /// The PKCE methods the server accepts; always contains `S256` here.
    public let codeChallengeMethodsSupported: [String]
    /// Whether authorization responses carry `iss` (RFC 9207); if so, a response
    /// without it is refused.
    public let authorizationResponseIssParameterSupported: Bool

    /// The metadata URL of `issuer` (RFC 8414 §3.1): `/.well-known/oauth-authorization-server`
    /// inserted between the host and the issuer's path.
    public static func metadataURL(forIssuer issuer: URL) -> URL {
        var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) ?? URLComponents()
        var path = components.path
        if path.hasSuffix("/") { path.removeLast() }
        components.path = "/.well-known/oauth-authorization-server" + path
        components.query = nil
        components.fragment = nil
        return components.url ?? issuer
    }

    /// Metadata configured by the app instead of discovered, checked the same way.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (see the type).
    public init(
        issuer: URL, authorizationEndpoint: URL, tokenEndpoint: URL, revocationEndpoint: URL? = nil,
        introspectionEndpoint: URL? = nil, userinfoEndpoint: URL? = nil, jwksURI: URL? = nil,
        codeChallengeMethodsSupported: [String] = ["S256"], authorizationResponseIssParameterSupported: Bool = false
    ) throws {
        for endpoint in [issuer, authorizationEndpoint, tokenEndpoint] + [
            revocationEndpoint, introspectionEndpoint, userinfoEndpoint, jwksURI,
        ].compactMap({ $0 }) {
            guard Self.isSecure(endpoint) else { throw Self.invalid("insecure_endpoint") }
        }
        guard codeChallengeMethodsSupported.contains(PKCE.challengeMethod) else { throw Self.invalid("pkce_s256_unsupported") }
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    /// The metadata in `json`, a reply from ``metadataURL(forIssuer:)``, which must name
    /// `expectedIssuer`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` with reason
    ///   `malformed_metadata`, `issuer_mismatch`, `insecure_endpoint` or `pkce_s256_unsupported`.
    public init(json: Data, expectedIssuer: URL) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let issuer = Self.url(object["issuer"]), let authorization = Self.url(object["authorization_endpoint"]),
            let token = Self.url(object["token_endpoint"])
        else { throw Self.invalid("malformed_metadata") }
        guard Self.sameIssuer(issuer, expectedIssuer) else { throw Self.invalid("issuer_mismatch") }
        try self.init(
            issuer: issuer, authorizationEndpoint: authorization, tokenEndpoint: token,
            revocationEndpoint: Self.url(object["revocation_endpoint"]),
            introspectionEndpoint: Self.url(object["introspection_endpoint"]),
            userinfoEndpoint: Self.url(object["userinfo_endpoint"]), jwksURI: Self.url(object["jwks_uri"]),
            codeChallengeMethodsSupported: (object["code_challenge_methods_supported"] as? [Any] ?? []).compactMap { $0 as? String },
            authorizationResponseIssParameterSupported: object["authorization_response_iss_parameter_supported"] as? Bool ?? false)
    }

    private enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }

    /// Decodes the RFC 8414 form and checks it like ``init(issuer:authorizationEndpoint:tokenEndpoint:revocationEndpoint:introspectionEndpoint:userinfoEndpoint:jwksURI:codeChallengeMethodsSupported:authorizationResponseIssParameterSupported:)``.
    ///
    /// - Throws: a `DecodingError` for a missing member, or ``LatchkeyClientError``
    ///   `invalid_configuration` for metadata that fails the checks.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func required(_ key: CodingKeys) throws -> URL {
            guard let url = Self.url(try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a URL")
            }
            return url
        }
        func optional(_ key: CodingKeys) throws -> URL? { Self.url(try container.decodeIfPresent(String.self, forKey: key)) }
        try self.init(
            issuer: required(.issuer), authorizationEndpoint: required(.authorizationEndpoint),
            tokenEndpoint: required(.tokenEndpoint), revocationEndpoint: optional(.revocationEndpoint),
            introspectionEndpoint: optional(.introspectionEndpoint), userinfoEndpoint: optional(.userinfoEndpoint),
            jwksURI: optional(.jwksURI),
            codeChallengeMethodsSupported: container.decode([String].self, forKey: .codeChallengeMethodsSupported),
            authorizationResponseIssParameterSupported:
                container.decodeIfPresent(Bool.self, forKey: .authorizationResponseIssParameterSupported) ?? false)
    }

    /// Encodes the RFC 8414 form: URLs as strings, absent endpoints left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer.absoluteString, forKey: .issuer)
        try container.encode(authorizationEndpoint.absoluteString, forKey: .authorizationEndpoint)
        try container.encode(tokenEndpoint.absoluteString, forKey: .tokenEndpoint)
        try container.encodeIfPresent(revocationEndpoint?.absoluteString, forKey: .revocationEndpoint)
        try container.encodeIfPresent(introspectionEndpoint?.absoluteString, forKey: .introspectionEndpoint)
        try container.encodeIfPresent(userinfoEndpoint?.absoluteString, forKey: .userinfoEndpoint)
        try container.encodeIfPresent(jwksURI?.absoluteString, forKey: .jwksURI)
        try container.encode(codeChallengeMethodsSupported, forKey: .codeChallengeMethodsSupported)
        try container.encode(authorizationResponseIssParameterSupported, forKey: .authorizationResponseIssParameterSupported)
    }

    /// Whether `iss` (from a response or an ID token) names this issuer.
    public func isIssuer(_ iss: String) -> Bool {
        guard let url = URL(string: iss) else { return false }
        return Self.sameIssuer(url, issuer)
    }

    static func sameIssuer(_ a: URL, _ b: URL) -> Bool {
        func trimmed(_ url: URL) -> String {
            let text = url.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        return trimmed(a) == trimmed(b)
    }

    /// `https`, or `http` to a loopback host (RFC 8252 §8.3 development setups).
    static func isSecure(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host?.lowercased() ?? "")
        default: return false
        }
    }

    private static func url(_ value: Any?) -> URL? {
        guard let text = value as? String, text.utf8.count <= 2048 else { return nil }
        return URL(string: text)
    }

    private static func invalid(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.invalidConfiguration, reasons: [reason])
    }
}

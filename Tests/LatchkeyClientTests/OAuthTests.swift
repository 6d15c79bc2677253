import Foundation
@testable import LatchkeyClient
import Testing

private let issuer = URL(string: "https://id.example.com")!

private func metadata(issParameter: Bool = true) throws -> AuthorizationServerMetadata {
    try AuthorizationServerMetadata(
        issuer: issuer, authorizationEndpoint: URL(string: "https://id.example.com/oauth/authorize")!,
        tokenEndpoint: URL(string: "https://id.example.com/oauth/token")!,
        revocationEndpoint: URL(string: "https://id.example.com/oauth/revoke")!,
        authorizationResponseIssParameterSupported: issParameter)
}

private func query(_ url: URL) -> [String: String] {
    Dictionary(uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
        .map { ($0.name, $0.value ?? "") })
}

@Suite struct AuthorizationServerMetadataTests {
    static let good = #"""
    {"issuer":"https://id.example.com","authorization_endpoint":"https://id.example.com/oauth/authorize",
     "token_endpoint":"https://id.example.com/oauth/token","revocation_endpoint":"https://id.example.com/oauth/revoke",
     "introspection_endpoint":"https://id.example.com/oauth/introspect","userinfo_endpoint":"https://id.example.com/userinfo",
     "jwks_uri":"https://id.example.com/.well-known/jwks.json","code_challenge_methods_supported":["S256"],
     "authorization_response_iss_parameter_supported":true}
    """#

    @Test("the metadata URL puts the well-known path between host and issuer path (RFC 8414 §3.1)", arguments: [
        ("https://id.example.com", "https://id.example.com/.well-known/oauth-authorization-server"),
        ("https://id.example.com/", "https://id.example.com/.well-known/oauth-authorization-server"),
        ("https://example.com/tenant/a", "https://example.com/.well-known/oauth-authorization-server/tenant/a"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/.well-known/oauth-authorization-server"),
    ])
    func metadataURL(issuer: String, expected: String) {
        #expect(AuthorizationServerMetadata.metadataURL(forIssuer: URL(string: issuer)!).absoluteString == expected)
    }

    @Test("metadata stored with the tokens round-trips in its RFC 8414 form and is checked again when read back")
    func codable() throws {
        let original = try metadata()
        let data = try JSONEncoder().encode(original)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["token_endpoint"] as? String == "https://id.example.com/oauth/token")
        #expect(object["introspection_endpoint"] == nil)
        #expect(try JSONDecoder().decode(AuthorizationServerMetadata.self, from: data) == original)
        #expect(try AuthorizationServerMetadata(json: data, expectedIssuer: issuer) == original)

        var tampered = object
        tampered["token_endpoint"] = "http://id.example.com/t"
        let insecure = try JSONSerialization.data(withJSONObject: tampered)
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["insecure_endpoint"])) {
            try JSONDecoder().decode(AuthorizationServerMetadata.self, from: insecure)
        }
    }

    @Test("published metadata is read field by field")
    func parse() throws {
        let parsed = try AuthorizationServerMetadata(json: Data(Self.good.utf8), expectedIssuer: issuer)
        #expect(parsed.tokenEndpoint.absoluteString == "https://id.example.com/oauth/token")
        #expect(parsed.revocationEndpoint?.path == "/oauth/revoke")
        #expect(parsed.introspectionEndpoint?.path == "/oauth/introspect")
        #expect(parsed.userinfoEndpoint?.path == "/userinfo")
        #expect(parsed.jwksURI?.path == "/.well-known/jwks.json")
        #expect(parsed.authorizationResponseIssParameterSupported)
        #expect(try AuthorizationServerMetadata(json: Data(Self.good.utf8), expectedIssuer: URL(string: "https://id.example.com/")!) == parsed)
    }

    @Test("metadata for another issuer, over plain http to a remote host, without S256, or malformed is refused", arguments: [
        (good, "https://other.example.com", "issuer_mismatch"),
        (good.replacingOccurrences(of: "https://id.example.com/oauth/token", with: "http://id.example.com/oauth/token"),
         "https://id.example.com", "insecure_endpoint"),
        (good.replacingOccurrences(of: #"["S256"]"#, with: #"["plain"]"#), "https://id.example.com", "pkce_s256_unsupported"),
        (good.replacingOccurrences(of: #","code_challenge_methods_supported":["S256"]"#, with: ""), "https://id.example.com",
         "pkce_s256_unsupported"),
        (#"{"issuer":"https://id.example.com"}"#, "https://id.example.com", "malformed_metadata"),
        ("<html>", "https://id.example.com", "malformed_metadata"),
    ])
    func refused(json: String, expected: String, reason: String) {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: [reason])) {
            try AuthorizationServerMetadata(json: Data(json.utf8), expectedIssuer: URL(string: expected)!)
        }
    }

    @Test("http endpoints are accepted on loopback hosts only")
    func loopbackHTTP() throws {
        let local = URL(string: "http://127.0.0.1:8080")!
        _ = try AuthorizationServerMetadata(
            issuer: local, authorizationEndpoint: local.appendingPathComponent("oauth/authorize"),
            tokenEndpoint: local.appendingPathComponent("oauth/token"))
        #expect(!AuthorizationServerMetadata.isSecure(URL(string: "http://192.168.1.2/oauth/token")!))
        #expect(!AuthorizationServerMetadata.isSecure(URL(string: "ftp://id.example.com/")!))
    }
}

@Suite struct AuthorizationRequestTests {
    static let redirect = URL(string: "com.example.app:/oauth/callback")!

    @Test("the authorization URL carries the code flow, PKCE S256, state and nonce")
    func authorizationURL() throws {
        let request = try AuthorizationRequest(
            metadata: try metadata(), clientID: "ios-app", redirectURI: Self.redirect, scopes: ["openid", "email"])
        let items = query(request.url)
        #expect(request.url.absoluteString.hasPrefix("https://id.example.com/oauth/authorize?"))
        #expect(items["response_type"] == "code")
        #expect(items["client_id"] == "ios-app")
        #expect(items["redirect_uri"] == "com.example.app:/oauth/callback")
        #expect(items["scope"] == "openid email")
        #expect(items["state"] == request.state)
        #expect(items["nonce"] == request.nonce)
        #expect(items["code_challenge"] == request.pkce.challenge)
        #expect(items["code_challenge_method"] == "S256")
        #expect(items["code_verifier"] == nil)
        #expect(!request.url.absoluteString.contains(request.pkce.verifier.exposed))
        #expect(request.state.count == 43 && request.nonce.count == 43 && request.state != request.nonce)
        #expect(try PKCE(verifier: request.pkce.verifier).challenge == request.pkce.challenge)
    }

    @Test("a redirect URI with a fragment is refused")
    func fragmentRedirect() throws {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_redirect_uri"])) {
            try AuthorizationRequest(metadata: try metadata(), clientID: "a", redirectURI: URL(string: "app:/cb#x")!, scopes: [])
        }
    }

    func request(_ redirect: URL = redirect, issParameter: Bool = true) throws -> AuthorizationRequest {
        try AuthorizationRequest(
            metadata: try metadata(issParameter: issParameter), clientID: "ios-app", redirectURI: redirect, scopes: ["openid"],
            state: "state-123", nonce: "nonce-456")
    }

    @Test("a matching callback yields the code")
    func goodCallback() throws {
        let code = try request().authorizationCode(
            from: URL(string: "com.example.app:/oauth/callback?code=abc%2B1&state=state-123&iss=https%3A%2F%2Fid.example.com")!)
        #expect(code.exposed == "abc+1")
    }

    @Test("callbacks that fail a check are refused with the reason", arguments: [
        ("com.example.app:/oauth/callback?code=c&state=other&iss=https%3A%2F%2Fid.example.com", "state_mismatch"),
        ("com.example.app:/oauth/callback?code=c&iss=https%3A%2F%2Fid.example.com", "state_mismatch"),
        ("com.example.app:/oauth/callback?code=c&state=state-123&iss=https%3A%2F%2Fevil.example", "issuer_mismatch"),
        ("com.example.app:/oauth/callback?code=c&state=state-123", "issuer_missing"),
        ("com.example.app:/oauth/callback?error=access_denied&state=state-123&iss=https%3A%2F%2Fid.example.com", "access_denied"),
        ("com.example.app:/oauth/callback?error=%3Cscript%3E&state=state-123&iss=https%3A%2F%2Fid.example.com", "server_error"),
        ("com.example.app:/oauth/callback?state=state-123&iss=https%3A%2F%2Fid.example.com", "missing_code"),
        ("com.example.app:/oauth/callback?code=c&code=d&state=state-123&iss=https%3A%2F%2Fid.example.com", "duplicate_parameter"),
        ("com.example.app:/other?code=c&state=state-123&iss=https%3A%2F%2Fid.example.com", "redirect_mismatch"),
        ("com.evil.app:/oauth/callback?code=c&state=state-123&iss=https%3A%2F%2Fid.example.com", "redirect_mismatch"),
    ])
    func refusedCallback(callback: String, reason: String) throws {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: [reason])) {
            try request().authorizationCode(from: URL(string: callback)!)
        }
    }

    @Test("a callback answers the request only on its redirect URI with its state, once — an error answer too", arguments: [
        ("com.example.app:/oauth/callback?code=c&state=state-123", true),
        ("com.example.app:/oauth/callback?error=access_denied&state=state-123", true),
        ("com.example.app:/oauth/callback?code=c&state=forged", false),
        ("com.example.app:/oauth/callback?code=c", false),
        ("com.example.app:/oauth/callback?state=state-123&state=state-123", false),
        ("com.example.app:/other?code=c&state=state-123", false),
    ])
    func answers(callback: String, answers: Bool) throws {
        #expect(try request().isAnswer(URL(string: callback)!) == answers)
    }

    @Test("an error response with a wrong state is reported as a state mismatch, not as the error")
    func errorWithWrongState() throws {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["state_mismatch"])) {
            try request().authorizationCode(from: URL(string: "com.example.app:/oauth/callback?error=access_denied&state=x")!)
        }
    }

    @Test("without the iss promise a callback without iss passes, one with a wrong iss still fails")
    func issOptional() throws {
        let request = try request(issParameter: false)
        #expect(try request.authorizationCode(from: URL(string: "com.example.app:/oauth/callback?code=c&state=state-123")!).exposed == "c")
        // RFC 9207 §2.4: an iss from a server that does not announce it is discarded, whatever it says.
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["issuer_not_announced"])) {
            try request.authorizationCode(from: URL(string: "com.example.app:/oauth/callback?code=c&state=state-123&iss=x")!)
        }
    }

    @Test("a loopback redirect URI with a port must come back on that port; without one any port matches")
    func loopbackPorts() throws {
        let withPort = try request(URL(string: "http://127.0.0.1:50123/callback")!)
        #expect(try withPort.authorizationCode(
            from: URL(string: "http://127.0.0.1:50123/callback?code=c&state=state-123&iss=https://id.example.com")!).exposed == "c")
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["redirect_mismatch"])) {
            try withPort.authorizationCode(from: URL(string: "http://127.0.0.1:50124/callback?code=c&state=state-123")!)
        }
        let anyPort = try request(URL(string: "http://127.0.0.1/callback")!)
        #expect(try anyPort.authorizationCode(
            from: URL(string: "http://127.0.0.1:4711/callback?code=c&state=state-123&iss=https://id.example.com")!).exposed == "c")
    }
}

@Suite struct IDTokenClaimsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ claims: [String: Any], alg: String = "ES256", signature: String = "c2ln") -> ClientSecret {
        func part(_ object: [String: Any]) -> String {
            Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        return ClientSecret(part(["alg": alg, "typ": "JWT"]) + "." + part(claims) + "." + signature)
    }

    static func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "https://id.example.com", "sub": "user-1", "aud": "ios-app", "exp": 1_800_000_600,
            "iat": 1_800_000_000, "nonce": "nonce-456",
        ]
        claims.merge(changes) { _, new in new }
        return claims
    }

    func validate(_ changes: [String: Any], now: Date = now) throws {
        try IDTokenClaims(idToken: Self.token(Self.claims(changes)))
            .validate(metadata: try metadata(), clientID: "ios-app", expectedNonce: "nonce-456", now: now, leeway: 60)
    }

    @Test("a token for this client, issuer and nonce, within its lifetime, passes")
    func valid() throws {
        try validate([:])
        try validate(["aud": ["ios-app", "api"], "azp": "ios-app"])
        let claims = try IDTokenClaims(idToken: Self.token(Self.claims()))
        #expect(claims.subject == "user-1")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_800_000_600))
    }

    @Test("clock skew is tolerated: 60 s past exp, and an iat up to 600 s ahead of the device's clock (as AppAuth)")
    func leeway() throws {
        try validate([:], now: Self.now.addingTimeInterval(600 + 59))
        try validate(["iat": 1_800_000_599, "exp": 1_800_001_200])
        #expect(IDTokenClaims.defaultIssuedAtLeeway == 600)
    }

    @Test("each failed claim check names its claim", arguments: [
        (["iss": "https://evil.example"], "id_token_issuer"),
        (["aud": "other-app"], "id_token_audience"),
        (["aud": ["ios-app", "api"]], "id_token_audience"),
        (["azp": "other-app"], "id_token_audience"),
        (["exp": 1_799_999_939], "id_token_expired"),
        (["iat": 1_800_000_601, "exp": 1_800_001_200], "id_token_issued_in_future"),
        (["nonce": "replayed"], "id_token_nonce"),
    ] as [([String: any Sendable], String)])
    func failed(changes: [String: any Sendable], reason: String) throws {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: [reason])) { try validate(changes) }
    }

    @Test("a missing nonce fails when one is expected")
    func missingNonce() throws {
        var claims = Self.claims()
        claims["nonce"] = nil
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["id_token_nonce"])) {
            try IDTokenClaims(idToken: Self.token(claims))
                .validate(metadata: try metadata(), clientID: "ios-app", expectedNonce: "nonce-456", now: Self.now)
        }
    }

    @Test("unsigned and malformed tokens are refused before any claim is trusted", arguments: [
        (token(claims(), alg: "none", signature: ""), "id_token_unsigned"),
        (token(claims(), signature: ""), "id_token_unsigned"),
        (ClientSecret("a.b"), "id_token_malformed"),
        (ClientSecret("!!.??.sig"), "id_token_malformed"),
        (token(["iss": "https://id.example.com"]), "id_token_malformed"),
    ])
    func malformed(token: ClientSecret, reason: String) {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: [reason])) { try IDTokenClaims(idToken: token) }
    }
}

@Suite struct TokenResponseTests {
    @Test("a token endpoint reply becomes stored tokens expiring expires_in after receipt")
    func parse() throws {
        let response = try TokenResponse(json: Data(
            #"{"access_token":"at","token_type":"Bearer","expires_in":600,"refresh_token":"rt","scope":"openid","id_token":"x.y.z"}"#.utf8))
        #expect(response.scope == "openid")
        #expect(response.idToken?.exposed == "x.y.z")
        let received = Date(timeIntervalSince1970: 1_000)
        #expect(response.storedTokens(receivedAt: received) == StoredTokens(
            accessToken: ClientSecret("at"), refreshToken: ClientSecret("rt"), expiresAt: Date(timeIntervalSince1970: 1_600)))
    }

    @Test("a refresh reply without a refresh token keeps the previous one; without expires_in a short lifetime is assumed")
    func defaults() throws {
        let response = try TokenResponse(json: Data(#"{"access_token":"at","token_type":"bearer"}"#.utf8))
        let stored = response.storedTokens(receivedAt: Date(timeIntervalSince1970: 0), previousRefreshToken: ClientSecret("old"))
        #expect(stored.refreshToken == ClientSecret("old"))
        #expect(stored.expiresAt == Date(timeIntervalSince1970: TokenResponse.assumedLifetime))
    }

    @Test("replies without an access token or with another token type are unexpected", arguments: [
        #"{"token_type":"Bearer"}"#, #"{"access_token":"at","token_type":"DPoP"}"#, #"{"access_token":"at"}"#, "[]",
    ])
    func malformed(json: String) {
        #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_token_response"])) {
            try TokenResponse(json: Data(json.utf8))
        }
    }

    @Test("OAuth error bodies map to the SDK's codes", arguments: [
        (400, #"{"error":"invalid_grant","error_description":"The refresh token was used."}"#, LatchkeyClientError.Code.sessionExpired),
        (400, #"{"error":"invalid_client"}"#, .requestRejected),
        (503, #"{"error":"temporarily_unavailable"}"#, .serverUnavailable),
    ])
    func oauthErrors(status: Int, json: String, code: LatchkeyClientError.Code) {
        let error = LatchkeyClientError.from(status: status, body: Data(json.utf8))
        #expect(error.code == code)
        #expect(!error.description.contains("was used"))
    }
}

@Suite struct TransportTests {
    @Test("form fields are percent-encoded outside the unreserved set")
    func formEncoding() {
        #expect(FormEncoding.encode([("a b", "x+y&z=/é~._-")]) == "a%20b=x%2By%26z%3D%2F%C3%A9~._-")
    }

    @Test("only idempotent methods are sent again after a 401", arguments: [
        ("GET", true), ("head", true), ("PUT", true), ("DELETE", true), ("OPTIONS", true), ("POST", false), ("PATCH", false),
    ])
    func idempotentMethods(method: String, retried: Bool) {
        #expect(AuthSession.isIdempotent(method) == retried)
    }

    @Test("transient URL errors are retryable network errors; others are not", arguments: [
        (URLError.Code.notConnectedToInternet, LatchkeyClientError(.networkUnavailable, reasons: ["offline"])),
        (.timedOut, LatchkeyClientError(.networkUnavailable, reasons: ["timed_out"])),
        (.cannotConnectToHost, LatchkeyClientError(.networkUnavailable, reasons: ["cannot_connect"])),
        (.networkConnectionLost, LatchkeyClientError(.networkUnavailable, reasons: ["connection_lost"])),
        (.cannotFindHost, LatchkeyClientError(.networkUnavailable, reasons: ["cannot_find_host"])),
        (.serverCertificateUntrusted, LatchkeyClientError(.untrustedServer, reasons: ["url_error_-1202"])),
        (.secureConnectionFailed, LatchkeyClientError(.untrustedServer, reasons: ["url_error_-1200"])),
        (.cancelled, LatchkeyClientError(.untrustedServer, reasons: ["url_error_-999"])),
        (.badURL, LatchkeyClientError(.unexpectedResponse, reasons: ["url_error_-1000"])),
    ])
    func urlErrors(code: URLError.Code, expected: LatchkeyClientError) {
        #expect(LatchkeyClientError.from(urlError: URLError(code)) == expected)
    }
}

@Suite struct OAuthRedactionTests {
    @Test("no textual form of a token response, stored tokens or an authorization request shows a secret")
    func redacted() throws {
        let response = TokenResponse(
            accessToken: ClientSecret("secret-access"), refreshToken: ClientSecret("secret-refresh"), expiresIn: 600,
            idToken: ClientSecret("secret-id"))
        let request = try AuthorizationRequest(
            metadata: try metadata(), clientID: "ios-app", redirectURI: URL(string: "app:/cb")!, scopes: ["openid"])
        let stored = response.storedTokens(receivedAt: Date())
        var dumped = ""
        dump(response, to: &dumped)
        dump(request, to: &dumped)
        dump(stored, to: &dumped)
        let texts = [String(describing: response), String(reflecting: response), "\(stored)", String(describing: request), dumped]
        for text in texts {
            for secret in ["secret-access", "secret-refresh", "secret-id", request.pkce.verifier.exposed] {
                #expect(!text.contains(secret))
            }
        }
    }
}

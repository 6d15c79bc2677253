public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A public OAuth 2.0 client for native apps (RFC 8252): discovery, the authorization
/// code flow with PKCE, refresh and revocation. `client_id` travels in the form body;
/// the client has no secret.
///
/// Every failure is a ``LatchkeyClientError``: `invalid_configuration` for bad metadata,
/// `authorization_failed` for a refused or tampered sign-in, `session_expired` for a
/// rejected refresh token, and the usual server and transport errors.
public struct OAuthClient: Sendable {
    /// The issuer identifier (the server's public URL).
    public let issuer: URL
    /// This app's registered client identifier.
    public let clientID: String
    /// The scopes to request (default `openid`).
    public let scopes: [String]
    /// Clock skew allowed when checking an ID token's expiry.
    public let leeway: TimeInterval
    /// How far in the future an ID token's `iat` may be (the server's clock ahead of
    /// the device's); 600 seconds, as AppAuth allows.
    public let issuedAtLeeway: TimeInterval
    private let http: ClientHTTP
    private let now: @Sendable () -> Date

    /// A client of `issuer`. `now` is the clock used for token expiry, ID token checks and
    /// a `Retry-After` date (``LatchkeyClientError/retryAfter``).
    public init(
        issuer: URL, clientID: String, scopes: [String] = ["openid"], leeway: TimeInterval = 60,
        issuedAtLeeway: TimeInterval = IDTokenClaims.defaultIssuedAtLeeway,
        session: URLSession = .shared, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.scopes = scopes
        self.leeway = leeway
        self.issuedAtLeeway = issuedAtLeeway
        self.http = ClientHTTP(session: session, now: now)
        self.now = now
    }

    /// Fetches and checks the issuer's metadata (RFC 8414).
    ///
    /// - Throws: `invalid_configuration` (see ``AuthorizationServerMetadata``) or a
    ///   server/transport error.
    public func discover() async throws -> AuthorizationServerMetadata {
        let reply = try await http.get(AuthorizationServerMetadata.metadataURL(forIssuer: issuer))
        guard reply.isSuccess else { throw reply.error }
        return try AuthorizationServerMetadata(json: reply.body, expectedIssuer: issuer)
    }

    /// A new authorization request to open in a browser; its answer comes back to `redirectURI`.
    public func makeAuthorizationRequest(
        metadata: AuthorizationServerMetadata, redirectURI: URL
    ) throws -> AuthorizationRequest {
        try AuthorizationRequest(metadata: metadata, clientID: clientID, redirectURI: redirectURI, scopes: scopes)
    }

    /// Completes a sign-in: checks `callback` (see
    /// ``AuthorizationRequest/authorizationCode(from:)``), redeems the code with the PKCE
    /// verifier, and checks the ID token's claims if one came back.
    public func completeSignIn(callback: URL, for request: AuthorizationRequest) async throws -> TokenResponse {
        try await exchange(code: try request.authorizationCode(from: callback), for: request)
    }

    /// Redeems an authorization `code` at the token endpoint (`grant_type=authorization_code`
    /// with `code_verifier`), then checks the ID token (``IDTokenClaims/validate(metadata:clientID:expectedNonce:now:leeway:issuedAtLeeway:)``
    /// with the request's nonce) if one came back.
    ///
    /// - Throws: `authorization_failed` (`invalid_grant` for a used, expired or foreign
    ///   code; an `id_token_*` reason), or a server/transport error.
    public func exchange(code: ClientSecret, for request: AuthorizationRequest) async throws -> TokenResponse {
        let response: TokenResponse
        do {
            response = try await tokenRequest(request.metadata, [
                ("grant_type", "authorization_code"), ("code", code.exposed),
                ("redirect_uri", request.redirectURI.absoluteString), ("client_id", clientID),
                ("code_verifier", request.pkce.verifier.exposed),
            ])
        } catch let error as LatchkeyClientError where error.code == .sessionExpired {
            throw LatchkeyClientError(.authorizationFailed, reasons: ["invalid_grant"], status: error.status, serverCode: error.serverCode)
        }
        if let idToken = response.idToken {
            try IDTokenClaims(idToken: idToken).validate(
                metadata: request.metadata, clientID: clientID, expectedNonce: request.nonce, now: now(), leeway: leeway, issuedAtLeeway: issuedAtLeeway)
        }
        return response
    }

    /// Trades `refreshToken` for new tokens (`grant_type=refresh_token`). An ID token in
    /// the reply is checked for issuer, audience and times (no nonce on refresh); one that
    /// fails is left out of the result rather than failing the refresh, because the server
    /// has already spent `refreshToken` and the new one must not be lost.
    ///
    /// - Throws: `session_expired` when the server rejects the refresh token
    ///   (`invalid_grant`), or a server/transport error (the token may still be good).
    public func refresh(_ refreshToken: ClientSecret, metadata: AuthorizationServerMetadata) async throws -> TokenResponse {
        let response = try await tokenRequest(metadata, [
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken.exposed), ("client_id", clientID),
        ])
        guard let idToken = response.idToken else { return response }
        do {
            try IDTokenClaims(idToken: idToken).validate(
                metadata: metadata, clientID: clientID, expectedNonce: nil, now: now(), leeway: leeway, issuedAtLeeway: issuedAtLeeway)
            return response
        } catch {
            return TokenResponse(
                accessToken: response.accessToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn,
                scope: response.scope)
        }
    }

    /// Revokes `token` (RFC 7009); a refresh token ends its whole login on Latchkey.
    /// An unknown or already revoked token counts as success, as the RFC says.
    ///
    /// - Throws: `invalid_configuration` (reason `no_revocation_endpoint`) when the server
    ///   publishes none, or a server/transport error.
    public func revoke(_ token: ClientSecret, typeHint: String = "refresh_token", metadata: AuthorizationServerMetadata) async throws {
        guard let endpoint = metadata.revocationEndpoint else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["no_revocation_endpoint"])
        }
        let reply = try await http.postForm(endpoint, [
            ("token", token.exposed), ("token_type_hint", typeHint), ("client_id", clientID),
        ])
        guard reply.isSuccess else { throw reply.error }
    }

    /// The tokens of a completed sign-in, as received now, with the ID token's subject
    /// and the request's server metadata (see ``TokenResponse/storedTokens(receivedAt:previousRefreshToken:metadata:)``):
    /// what ``AuthSession/signIn(_:)`` stores.
    public func storedTokens(_ response: TokenResponse, for request: AuthorizationRequest) -> StoredTokens {
        response.storedTokens(receivedAt: now(), metadata: request.metadata)
    }

    /// The tokens a refresh reply stands for, as received now, following `previous`.
    func storedTokens(_ response: TokenResponse, following previous: StoredTokens, metadata: AuthorizationServerMetadata) -> StoredTokens {
        response.storedTokens(receivedAt: now(), previousRefreshToken: previous.refreshToken, metadata: metadata)
            .succeeding(previous)
    }

    private func tokenRequest(
        _ metadata: AuthorizationServerMetadata, _ fields: [(name: String, value: String)]
    ) async throws -> TokenResponse {
        let reply = try await http.postForm(metadata.tokenEndpoint, fields)
        guard reply.isSuccess else { throw reply.error }
        return try TokenResponse(json: reply.body)
    }
}

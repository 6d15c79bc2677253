public import Foundation

/// A successful token endpoint reply (RFC 6749 §5.1): the tokens of a code exchange or
/// a refresh. Its description shows no token.
public struct TokenResponse: Sendable, Equatable {
    /// The lifetime assumed when the server sends no `expires_in`.
    public static let assumedLifetime: TimeInterval = 300

    /// The bearer token for API requests.
    public let accessToken: ClientSecret
    /// The refresh token; nil when the server issued none (on a refresh: keep the old one).
    public let refreshToken: ClientSecret?
    /// Seconds until the access token expires, as the server said.
    public let expiresIn: TimeInterval?
    /// The granted scopes, space-separated, if the server said.
    public let scope: String?
    /// The OpenID Connect ID token (a JWT), if issued.
    public let idToken: ClientSecret?

    /// A reply with the given values.
    public init(
        accessToken: ClientSecret, refreshToken: ClientSecret?, expiresIn: TimeInterval?, scope: String? = nil,
        idToken: ClientSecret? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.idToken = idToken
    }

    /// The reply in `json`.
    ///
    /// - Throws: ``LatchkeyClientError`` `unexpected_response` unless it has an
    ///   `access_token` and `token_type` `Bearer` (any case).
    public init(json: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let accessToken = object["access_token"] as? String, !accessToken.isEmpty,
            (object["token_type"] as? String)?.lowercased() == "bearer"
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_token_response"]) }
        self.init(
            accessToken: ClientSecret(accessToken),
            refreshToken: (object["refresh_token"] as? String).map(ClientSecret.init),
            expiresIn: (object["expires_in"] as? NSNumber)?.doubleValue,
            scope: object["scope"] as? String,
            idToken: (object["id_token"] as? String).map(ClientSecret.init))
    }

    /// The tokens to store, the expiry counted from `receivedAt` (``assumedLifetime``
    /// without `expires_in`); `previousRefreshToken` is kept when the reply has none. The
    /// subject is the ID token's `sub` when an ID token came (the caller has checked it:
    /// ``OAuthClient`` drops one that fails), and `metadata` is stored with the tokens so
    /// the session can refresh after a restart without discovery.
    public func storedTokens(
        receivedAt: Date, previousRefreshToken: ClientSecret? = nil, metadata: AuthorizationServerMetadata? = nil
    ) -> StoredTokens {
        StoredTokens(
            accessToken: accessToken, refreshToken: refreshToken ?? previousRefreshToken,
            expiresAt: receivedAt.addingTimeInterval(expiresIn ?? Self.assumedLifetime),
            subject: idToken.flatMap { try? IDTokenClaims(idToken: $0).subject }, metadata: metadata)
    }
}

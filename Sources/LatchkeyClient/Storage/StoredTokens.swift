public import Foundation

/// The tokens of a signed-in session, as a ``TokenStore`` keeps them, with what the app
/// needs to use them after a restart without asking the server first: who signed in
/// (the ID token's subject) and, for an OAuth session, the authorization server's
/// metadata — so a session refreshes offline-started apps without a new discovery.
///
/// Encodes to JSON as `{"access_token", "refresh_token"?, "expires_at", "subject"?,
/// "authorization_server"?, "revocation_token"?}` (expiry in seconds since 1970; the metadata
/// in its RFC 8414 form, checked again when decoded); the tokens are written in the clear, so
/// only a store that protects its medium (file mode 0600, the Keychain) should encode it.
public struct StoredTokens: Sendable, Equatable, Codable {
    /// The bearer token sent with API requests.
    public let accessToken: ClientSecret
    /// The token that gets a new access token; nil when the server issued none.
    public let refreshToken: ClientSecret?
    /// When the access token stops being accepted.
    public let expiresAt: Date
    /// The account's stable identifier: the `sub` of the ID token received at sign-in,
    /// if one was; nil for first-party logins.
    public let subject: String?
    /// The authorization server an OAuth session refreshes and revokes at; nil for
    /// first-party logins.
    public let metadata: AuthorizationServerMetadata?
    /// A refresh token of this login that the server has already rotated away (the one
    /// the last refresh presented), nil until the first refresh. It can end the login and
    /// nothing else — revoked, or presented again, which the server takes as reuse — so a
    /// store may keep it where no Face ID guards it, for a sign-out that needs none
    /// (``TokenStore/tokensForSignOut()``).
    public let revocationToken: ClientSecret?

    /// Tokens as received from the token endpoint.
    public init(
        accessToken: ClientSecret, refreshToken: ClientSecret?, expiresAt: Date, subject: String? = nil,
        metadata: AuthorizationServerMetadata? = nil, revocationToken: ClientSecret? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.subject = subject
        self.metadata = metadata
        self.revocationToken = revocationToken
    }

    /// These tokens as the successors of `previous`: the subject and the metadata carry
    /// over when the refresh reply did not bring them, and a subject never changes within
    /// a login (OpenID Connect Core §12.2: a refreshed ID token names the same subject),
    /// so the one received at sign-in is kept. A rotated refresh token becomes the
    /// ``revocationToken``.
    func succeeding(_ previous: StoredTokens) -> StoredTokens {
        let rotated = refreshToken != nil && refreshToken != previous.refreshToken
        return StoredTokens(
            accessToken: accessToken, refreshToken: refreshToken ?? previous.refreshToken, expiresAt: expiresAt,
            subject: previous.subject ?? subject, metadata: metadata ?? previous.metadata,
            revocationToken: rotated ? previous.refreshToken : previous.revocationToken)
    }

    /// What can end this login without the tokens that use it: the ``revocationToken`` as the
    /// refresh token, with the metadata naming where to revoke it; nil before the first refresh.
    package var revocationRecord: StoredTokens? {
        guard let revocationToken else { return nil }
        return StoredTokens(accessToken: ClientSecret(""), refreshToken: revocationToken, expiresAt: Date(timeIntervalSince1970: 0), metadata: metadata)
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case subject
        case metadata = "authorization_server"
        case revocationToken = "revocation_token"
    }

    /// Decodes the JSON form described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = ClientSecret(try container.decode(String.self, forKey: .accessToken))
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken).map(ClientSecret.init)
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expiresAt))
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        metadata = try container.decodeIfPresent(AuthorizationServerMetadata.self, forKey: .metadata)
        revocationToken = try container.decodeIfPresent(String.self, forKey: .revocationToken).map(ClientSecret.init)
    }

    /// Encodes the JSON form described on the type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken.exposed, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken?.exposed, forKey: .refreshToken)
        try container.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(metadata, forKey: .metadata)
        try container.encodeIfPresent(revocationToken?.exposed, forKey: .revocationToken)
    }
}

public import Foundation

/// The tokens of a signed-in session, as a ``TokenStore`` keeps them.
///
/// Encodes to JSON as `{"access_token", "refresh_token"?, "expires_at"}` (expiry in
/// seconds since 1970); the tokens are written in the clear, so only a store that
/// protects its medium (file mode 0600, the Keychain) should encode it.
public struct StoredTokens: Sendable, Equatable, Codable {
    /// The bearer token sent with API requests.
    public let accessToken: ClientSecret
    /// The token that gets a new access token; nil when the server issued none.
    public let refreshToken: ClientSecret?
    /// When the access token stops being accepted.
    public let expiresAt: Date

    /// Tokens as received from the token endpoint.
    public init(accessToken: ClientSecret, refreshToken: ClientSecret?, expiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
    }

    /// Decodes the JSON form described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = ClientSecret(try container.decode(String.self, forKey: .accessToken))
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken).map(ClientSecret.init)
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expiresAt))
    }

    /// Encodes the JSON form described on the type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken.exposed, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken?.exposed, forKey: .refreshToken)
        try container.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
    }
}

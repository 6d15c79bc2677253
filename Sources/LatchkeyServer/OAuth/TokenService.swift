public import Foundation
public import LatchkeyCrypto
import LatchkeyJOSE

/// Issues access tokens (ES256 JWTs, `typ: at+jwt`) with rotating opaque refresh tokens.
///
/// Promises: only the SHA-256 digest of a refresh token is stored; each refresh consumes
/// the presented token and returns a new pair (see ``SessionStore``), and presenting a
/// used token revokes its whole login; a password reset ends every login of the account.
public final class TokenService: Sendable {
    /// Lifetimes and the issuer the tokens name.
    public struct Settings: Sendable {
        /// `iss` and `aud` of every access token: the server's public URL.
        public var issuer: String
        /// How long an access token is valid.
        public var accessTokenLifetime: TimeInterval
        /// How long a refresh token stays valid unless used.
        public var refreshIdleLifetime: TimeInterval
        /// How long a login lasts at most, however often it is refreshed.
        public var refreshAbsoluteLifetime: TimeInterval

        /// Settings with the default lifetimes: 10 minutes, 7 days idle, 30 days absolute.
        public init(
            issuer: String, accessTokenLifetime: TimeInterval = 600, refreshIdleLifetime: TimeInterval = 7 * 86400,
            refreshAbsoluteLifetime: TimeInterval = 30 * 86400
        ) {
            self.issuer = issuer
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshIdleLifetime = refreshIdleLifetime
            self.refreshAbsoluteLifetime = refreshAbsoluteLifetime
        }
    }

    /// An access token with the refresh token that renews it.
    public struct IssuedTokens: Sendable {
        /// The signed access token (compact JWS).
        public let accessToken: Redacted<String>
        /// The opaque refresh token; only its digest is stored.
        public let refreshToken: Redacted<String>
        /// How long the access token is valid, in seconds.
        public let expiresIn: TimeInterval
    }

    /// The claims of an access token, as encoded in its payload.
    struct AccessTokenClaims: Codable, Equatable {
        var iss: String
        var aud: String
        var sub: String
        var client_id: String?
        var scope: String
        var jti: String
        var iat: Int64
        var exp: Int64
        /// The account's credential version: a resource server may refuse older ones.
        var cv: Int
    }

    private let store: any SessionStore
    private let keyRing: SigningKeyRing
    private let clock: any WallClock
    private let settings: Settings

    /// A service issuing tokens from `store`, signed with `keyRing`'s active key.
    public init(store: any SessionStore, keyRing: SigningKeyRing, clock: any WallClock, settings: Settings) {
        self.store = store
        self.keyRing = keyRing
        self.clock = clock
        self.settings = settings
    }

    /// Starts a new login for `account` (which must just have proven its credentials):
    /// a fresh refresh-token family and an access token. Throws `invalid_token` when the
    /// account was disabled or its password changed since it was read.
    public func issue(for account: Account, clientID: String?, scope: [String]) throws -> IssuedTokens {
        let now = clock.now()
        let refreshToken = SecureRandom.token()
        let stored = try store.createRefreshToken(
            digest: OpaqueToken.digest(refreshToken), accountID: account.id, familyID: UUID().uuidString.lowercased(),
            clientID: clientID, scope: scope, credentialVersion: account.credentialVersion, now: now,
            idleExpiresAt: now.addingTimeInterval(settings.refreshIdleLifetime),
            absoluteExpiresAt: now.addingTimeInterval(settings.refreshAbsoluteLifetime))
        guard let stored else { throw Self.invalidToken }
        return try tokens(for: stored, refreshToken: refreshToken, now: now)
    }

    /// Consumes `refreshToken` and returns a new pair in the same login. Throws
    /// `invalid_token` for an unknown, expired, revoked or already used token (a used one
    /// also revokes its whole login).
    public func refresh(_ refreshToken: Redacted<String>) throws -> IssuedTokens {
        guard let digest = OpaqueToken.wellFormedDigest(refreshToken) else { throw Self.invalidToken }
        let now = clock.now()
        let successor = SecureRandom.token()
        let result = try store.rotateRefreshToken(
            presentedDigest: digest, newDigest: OpaqueToken.digest(successor), now: now, idleTTL: settings.refreshIdleLifetime)
        guard case .rotated(let record, _) = result else { throw Self.invalidToken }
        return try tokens(for: record, refreshToken: successor, now: now)
    }

    /// Ends the login `refreshToken` belongs to; an unknown token is ignored, so logging
    /// out twice is harmless.
    public func revoke(_ refreshToken: Redacted<String>) throws {
        guard let digest = OpaqueToken.wellFormedDigest(refreshToken) else { return }
        try store.revokeFamily(containing: digest, now: clock.now())
    }

    private func tokens(for record: RefreshTokenRecord, refreshToken: Redacted<String>, now: Date) throws -> IssuedTokens {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = AccessTokenClaims(
            iss: settings.issuer, aud: settings.issuer, sub: record.accountID, client_id: record.clientID,
            scope: record.scope.joined(separator: " "), jti: UUID().uuidString.lowercased(), iat: issuedAt,
            exp: issuedAt + Int64(settings.accessTokenLifetime), cv: record.credentialVersion)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let key = keyRing.activeKey
        let accessToken = try JWS.sign(
            header: JWSHeader(alg: key.algorithm, typ: "at+jwt"), payload: try encoder.encode(claims), key: key)
        return IssuedTokens(
            accessToken: Redacted(accessToken), refreshToken: refreshToken, expiresIn: settings.accessTokenLifetime)
    }

    static let invalidToken = LatchkeyError(.invalidToken, "The token is invalid or expired.")
}

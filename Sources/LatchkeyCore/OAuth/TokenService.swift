package import Foundation
package import LatchkeyCrypto
import LatchkeyJOSE

/// Issues access tokens (ES256 JWTs, `typ: at+jwt`, RFC 9068) with rotating opaque refresh
/// tokens, redeems authorization codes (with an OpenID Connect ID token signed by the
/// algorithm the client is registered for), and decides whether a token is still valid.
///
/// Promises: only SHA-256 digests of codes and refresh tokens are stored; a code is
/// redeemed once, by the client and redirect URI it was issued to with the right PKCE
/// verifier, and presenting it again revokes everything issued from it; each refresh
/// consumes the presented token and returns a new pair, and presenting a used token revokes
/// its whole family; a refresh token works only for the client it was issued to; an access
/// token is valid only while its family is live and its account is active with the same
/// credentials (a password reset ends every family of the account).
package final class TokenService: Sendable {
    /// Lifetimes and the names the tokens carry.
    package struct Settings: Sendable {
        /// `iss` of every token: the server's public URL.
        package var issuer: String
        /// `aud` of every access token.
        package var audience: String
        /// How long an access token (and an ID token) is valid.
        package var accessTokenLifetime: TimeInterval
        /// How long a refresh token stays valid unless used.
        package var refreshIdleLifetime: TimeInterval
        /// How long a login lasts at most, however often it is refreshed.
        package var refreshAbsoluteLifetime: TimeInterval
        /// The most live logins (refresh-token families) one account may hold; a new login
        /// beyond it ends the least recently used one.
        package var maximumLoginsPerAccount: Int
        /// How long after a rotation the same client may present the rotated token again and
        /// get a fresh successor, when the successor it was given is still unused (the client
        /// lost it: a failed save); 0 treats every second presentation as reuse.
        package var refreshReuseGrace: TimeInterval

        /// Settings with the default lifetimes: 10 minutes, 7 days idle, 30 days absolute;
        /// the audience defaults to the issuer.
        package init(
            issuer: String, audience: String? = nil, accessTokenLifetime: TimeInterval = 600,
            refreshIdleLifetime: TimeInterval = 7 * 86400, refreshAbsoluteLifetime: TimeInterval = 30 * 86400,
            maximumLoginsPerAccount: Int = 100, refreshReuseGrace: TimeInterval = 10
        ) {
            self.issuer = issuer
            self.audience = audience ?? issuer
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshIdleLifetime = refreshIdleLifetime
            self.refreshAbsoluteLifetime = refreshAbsoluteLifetime
            self.maximumLoginsPerAccount = maximumLoginsPerAccount
            self.refreshReuseGrace = refreshReuseGrace
        }
    }

    /// An access token, with the refresh token that renews it when the grant gives one.
    package struct IssuedTokens: Sendable {
        /// The signed access token (compact JWS).
        package let accessToken: Redacted<String>
        /// The opaque refresh token (only its digest is stored); nil for a grant without one.
        package let refreshToken: Redacted<String>?
        /// How long the access token is valid, in seconds.
        package let expiresIn: TimeInterval
        /// The scopes granted.
        package let scope: [String]
        /// The OpenID Connect ID token, issued with a code whose scope has `openid`.
        package let idToken: Redacted<String>?
    }

    /// The claims of an access token, as encoded in its payload.
    package struct AccessTokenClaims: Codable, Equatable, Sendable {
        /// The issuer.
        package var iss: String
        /// The audience.
        package var aud: String
        /// The account id.
        package var sub: String
        /// The OAuth client; absent for first-party logins.
        package var client_id: String?
        /// Space-separated scopes.
        package var scope: String
        /// A unique id.
        package var jti: String
        /// Issued at, seconds since 1970.
        package var iat: Int64
        /// Expiry, seconds since 1970.
        package var exp: Int64
        /// The account's credential version: a resource server may refuse older ones.
        package var cv: Int
        /// The refresh-token family (the login) the token belongs to.
        package var sid: String
    }

    /// An access token that verified, with the account it acts for.
    package struct VerifiedAccessToken: Sendable {
        /// The token's claims.
        package let claims: AccessTokenClaims
        /// The account, as it is now.
        package let account: Account
        /// What the sign-in that started the token's login proved, and when.
        package let assurance: Assurance
    }

    /// The claims of an OpenID Connect ID token.
    struct IDTokenClaims: Codable, Equatable {
        var iss: String
        var sub: String
        var aud: String
        var iat: Int64
        var exp: Int64
        var auth_time: Int64
        var amr: [String]
        var nonce: String?
        var email: String?
        var email_verified: Bool?
    }

    /// An ID token this server issued, presented back as a hint of whom to sign out
    /// (OpenID Connect RP-Initiated Logout 1.0 §2, `id_token_hint`).
    package struct IDTokenHint: Sendable, Equatable {
        /// The account the ID token was about (`sub`).
        package let subject: String
        /// The client it was issued to (`aud`).
        package let clientID: String
    }

    /// How far ahead of this server's clock another instance's clock may be: a token issued
    /// up to this many seconds "in the future" is accepted. Expiry gets no leeway.
    static let clockSkew: TimeInterval = 60

    /// The longest authorization code or refresh token looked at; longer ones never match.
    package static let maximumOpaqueTokenLength = 512

    private let store: any SessionStore & AuthorizationStore
    private let keyRing: SigningKeyRing
    private let clock: any WallClock
    /// The settings the service was created with.
    package let settings: Settings

    /// A service issuing tokens from `store`, signed with `keyRing`'s active key.
    package init(store: any SessionStore & AuthorizationStore, keyRing: SigningKeyRing, clock: any WallClock, settings: Settings) {
        self.store = store
        self.keyRing = keyRing
        self.clock = clock
        self.settings = settings
    }

    /// Starts a new first-party login for the account that has just signed in: a fresh
    /// refresh-token family, keeping what the sign-in proved and where it came from (`origin`),
    /// and an access token. Throws `invalid_token` when the account was disabled or its
    /// password changed since it was read.
    package func issue(
        for signedIn: SignInService.SignedIn, clientID: String?, scope: [String], origin: LoginOrigin
    ) throws -> IssuedTokens {
        let now = clock.now()
        let refreshToken = SecureRandom.token()
        let account = signedIn.account
        let stored = try store.createRefreshToken(
            digest: OpaqueToken.digest(refreshToken), accountID: account.id, familyID: SecureRandom.identifier(),
            clientID: clientID, scope: scope, credentialVersion: account.credentialVersion, assurance: signedIn.assurance,
            origin: origin, now: now,
            idleExpiresAt: now.addingTimeInterval(settings.refreshIdleLifetime),
            absoluteExpiresAt: now.addingTimeInterval(settings.refreshAbsoluteLifetime),
            liveFamilyLimit: settings.maximumLoginsPerAccount)
        guard let stored else { throw Self.invalidToken }
        return try tokens(for: stored, refreshToken: refreshToken, now: now)
    }

    /// Redeems an authorization code for `client` (already authenticated when confidential):
    /// the code must have been issued to that client for exactly `redirectURI`, and
    /// `codeVerifier` must hash to its PKCE challenge. Throws `invalid_grant` otherwise (the
    /// code is then spent), for an unknown, expired or used code, and when the account was
    /// disabled or changed its password since; a used code also revokes the tokens issued
    /// from it (the error's cause is ``LatchkeyError/Cause/authorizationCodeReplayed``, for the logs).
    /// With the `openid` scope the answer has an ID token signed with the client's
    /// ``OAuthClient/idTokenAlgorithm``. The login it starts keeps `origin`, where the code was
    /// redeemed from.
    package func redeem(
        code: Redacted<String>, client: OAuthClient, redirectURI: String, codeVerifier: Redacted<String>, origin: LoginOrigin
    ) throws -> IssuedTokens {
        let clientID = client.id
        guard code.exposed.utf8.count <= Self.maximumOpaqueTokenLength, let digest = OpaqueToken.wellFormedDigest(code) else {
            throw Self.invalidCode
        }
        let now = clock.now()
        let refreshToken = SecureRandom.token()
        let result = try store.redeemAuthorizationCode(
            digest: digest, now: now,
            refreshToken: InitialRefreshToken(
                digest: OpaqueToken.digest(refreshToken), familyID: SecureRandom.identifier(),
                idleExpiresAt: now.addingTimeInterval(settings.refreshIdleLifetime),
                absoluteExpiresAt: now.addingTimeInterval(settings.refreshAbsoluteLifetime),
                liveFamilyLimit: settings.maximumLoginsPerAccount, origin: origin)
        ) { issued in
            issued.clientID == clientID && issued.redirectURI.utf8.elementsEqual(redirectURI.utf8)
                && PKCEChallenge.verify(codeVerifier, against: issued.codeChallenge)
        }
        switch result {
        case .redeemed(let issuedCode, let account, let stored):
            var idToken: Redacted<String>?
            if issuedCode.scope.contains("openid") {
                idToken = try self.idToken(for: issuedCode, account: account, algorithm: client.idTokenAlgorithm, now: now)
            }
            return try tokens(for: stored, refreshToken: refreshToken, now: now, idToken: idToken)
        case .replayed:
            throw Self.invalidCode.with(cause: .authorizationCodeReplayed)
        case .rejected:
            throw Self.invalidCode.with(cause: .authorizationCodeMismatch)
        case .invalid:
            throw Self.invalidCode
        }
    }

    /// Consumes `refreshToken` and returns a new pair in the same login. The token must have
    /// been issued to `clientID` (nil: a first-party login); a token of another client is
    /// refused without being consumed. Throws `invalid_token` for an unknown, expired,
    /// revoked or already used token (a used one also revokes its whole login).
    /// `requestedScope` (RFC 6749 §6) may only repeat granted scopes (else `invalid_scope`,
    /// nothing consumed); the new pair keeps the scopes granted at login.
    package func refresh(_ refreshToken: Redacted<String>, clientID: String?, requestedScope: [String]? = nil) throws
        -> IssuedTokens
    {
        guard refreshToken.exposed.utf8.count <= Self.maximumOpaqueTokenLength,
            let digest = OpaqueToken.wellFormedDigest(refreshToken)
        else { throw Self.invalidToken }
        let now = clock.now()
        let successor = SecureRandom.token()
        var refusal = Self.invalidToken
        let result = try store.rotateRefreshToken(
            presentedDigest: digest, newDigest: OpaqueToken.digest(successor), now: now, idleTTL: settings.refreshIdleLifetime,
            reuseGrace: settings.refreshReuseGrace
        ) { presented in
            guard presented.clientID == clientID else { return false }
            if let requestedScope, !Set(requestedScope).isSubset(of: Set(presented.scope)) {
                refusal = LatchkeyError(.invalidScope, "A refresh cannot add scopes that were not granted.")
                return false
            }
            return true
        }
        switch result {
        case .rotated(let record, _):
            return try tokens(for: record, refreshToken: successor, now: now)
        case .reused:
            throw Self.invalidToken.with(cause: .refreshTokenReused)
        case .refused:
            throw refusal
        case .invalid:
            throw Self.invalidToken
        }
    }

    /// Ends the login `token` belongs to — a refresh token or an access token of `clientID`
    /// (nil: first-party). Tokens that are unknown, invalid or of another client are ignored,
    /// so revoking twice is harmless and nothing tells whether a token exists (RFC 7009).
    package func revoke(_ token: Redacted<String>, clientID: String?) throws {
        let now = clock.now()
        if token.exposed.utf8.count <= Self.maximumOpaqueTokenLength, let digest = OpaqueToken.wellFormedDigest(token) {
            try store.revokeFamily(containing: digest, now: now) { $0.clientID == clientID }
        } else if let verified = try verifyAccessToken(token), verified.claims.client_id == clientID {
            try store.revokeFamily(id: verified.claims.sid, now: now)
        }
    }

    /// What the token is, for the resource server `resourceServer` (RFC 7662): an access token
    /// valid now (every one is for the configured audience), or a refresh token valid now
    /// that was issued to `resourceServer` itself; ``Introspection/inactive`` for anything
    /// else — another client's refresh token included — never why. Throws `client_not_allowed`
    /// unless `resourceServer` was registered to introspect.
    package func introspect(_ token: Redacted<String>, for resourceServer: OAuthClient) throws -> Introspection {
        guard resourceServer.isConfidential, resourceServer.mayIntrospect else {
            throw LatchkeyError(.clientNotAllowed, "This client may not introspect tokens.")
        }
        if token.exposed.utf8.count <= Self.maximumOpaqueTokenLength, let digest = OpaqueToken.wellFormedDigest(token) {
            guard let (record, account) = try store.usableRefreshToken(digest: digest, now: clock.now()),
                record.clientID == resourceServer.id
            else { return .inactive }
            return Introspection(refreshToken: record, account: account, issuer: settings.issuer)
        }
        guard let verified = try verifyAccessToken(token) else { return .inactive }
        return Introspection(accessToken: verified.claims)
    }

    /// `/userinfo`: the account `accessToken` acts for. Throws `invalid_token` unless the token
    /// is valid now, `insufficient_scope` unless it has the `openid` scope.
    package func userInfo(accessToken: Redacted<String>) throws -> UserInfo {
        guard let verified = try verifyAccessToken(accessToken) else {
            throw LatchkeyError(.invalidToken, "The access token is invalid or expired.")
        }
        let scope = verified.claims.scope.split(separator: " ")
        guard scope.contains("openid") else {
            throw LatchkeyError(.insufficientScope, "The access token lacks the openid scope.")
        }
        return UserInfo(account: verified.account, withEmail: scope.contains("email"))
    }

    /// `token` as an ID token hint, if this server issued it: its signature verifies with a
    /// published key of any ID token algorithm, it is a `typ: JWT` (so an access token is
    /// none), its `iss` is this server and it has a subject and exactly one audience. Its
    /// expiry is not checked: an app signs out long after its ID token expired, and
    /// RP-Initiated Logout lets the hint be an expired one. A token signed by a key retired
    /// long enough to be no longer published does not verify. Nil otherwise, never why.
    package func idTokenHint(_ token: Redacted<String>) -> IDTokenHint? {
        guard let verified = try? JWS.verify(compact: token.exposed, keys: keyRing.idTokenVerificationKeys(now: clock.now())),
            verified.header.typ == "JWT", let claims = try? JWTClaims.decode(from: verified.payload),
            claims.iss == settings.issuer, let subject = claims.sub, let audience = claims.aud?.values, audience.count == 1
        else { return nil }
        return IDTokenHint(subject: subject, clientID: audience[0])
    }

    /// The access token's claims and account if its signature verifies with a published key
    /// (ES256 only), it is an `at+jwt` issued by this server for the configured audience and
    /// unexpired at the current time, and its login is still live (not revoked or logged out;
    /// the account active with the same credentials). Nil otherwise — never why.
    package func verifyAccessToken(_ token: Redacted<String>) throws -> VerifiedAccessToken? {
        let now = clock.now()
        guard let verified = try? JWS.verify(compact: token.exposed, keys: keyRing.verificationKeys(now: now)),
            Self.isAccessTokenType(verified.header.typ),
            let claims = try? JSONDecoder().decode(AccessTokenClaims.self, from: verified.payload),
            (try? JWTClaims.decode(from: verified.payload).validate(
                now: now, issuer: settings.issuer, audience: settings.audience, leeway: Self.clockSkew, expiryLeeway: 0)) != nil
        else { return nil }
        guard let (account, assurance) = try store.liveFamily(familyID: claims.sid, now: now),
            account.id == claims.sub, account.credentialVersion == claims.cv
        else { return nil }
        return VerifiedAccessToken(claims: claims, account: account, assurance: assurance)
    }

    /// Whether a JWS `typ` declares an access token: `at+jwt` or `application/at+jwt`, in any
    /// case (RFC 9068 §4; media types are case-insensitive, RFC 7515 §4.1.9).
    static func isAccessTokenType(_ typ: String?) -> Bool {
        guard let typ = typ?.lowercased() else { return false }
        return typ == "at+jwt" || typ == "application/at+jwt"
    }

    private func tokens(
        for record: RefreshTokenRecord, refreshToken: Redacted<String>, now: Date, idToken: Redacted<String>? = nil
    ) throws -> IssuedTokens {
        let issuedAt = Self.seconds(now)
        let claims = AccessTokenClaims(
            iss: settings.issuer, aud: settings.audience, sub: record.accountID, client_id: record.clientID,
            scope: record.scope.joined(separator: " "), jti: SecureRandom.identifier(), iat: issuedAt,
            exp: issuedAt + Int64(settings.accessTokenLifetime), cv: record.credentialVersion, sid: record.familyID)
        return IssuedTokens(
            accessToken: try sign(claims, type: "at+jwt", key: keyRing.activeKey), refreshToken: refreshToken, expiresIn: settings.accessTokenLifetime,
            scope: record.scope, idToken: idToken)
    }

    private func idToken(
        for code: AuthorizationCodeRecord, account: Account, algorithm: JWSAlgorithm, now: Date
    ) throws -> Redacted<String> {
        let issuedAt = Self.seconds(now)
        let claims = IDTokenClaims(
            iss: settings.issuer, sub: account.id, aud: code.clientID, iat: issuedAt,
            exp: issuedAt + Int64(settings.accessTokenLifetime), auth_time: Self.seconds(code.assurance.authTime),
            amr: code.assurance.methods.map(\.rawValue), nonce: code.nonce,
            email: code.scope.contains("email") ? account.email : nil, email_verified: code.scope.contains("email") ? true : nil)
        return try sign(claims, type: "JWT", key: keyRing.activeKey(for: algorithm))
    }

    private func sign(_ claims: some CompactJSONObject, type: String, key: SigningKey) throws -> Redacted<String> {
        Redacted(try JWS.sign(header: JWSHeader(alg: key.algorithm, typ: type), payload: CompactJSON.encode(claims), key: key))
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    static let invalidToken = LatchkeyError(.invalidToken, "The token is invalid or expired.")
    static let invalidCode = LatchkeyError(.invalidGrant, "The authorization code is invalid, expired or already used.")
}

extension TokenService.AccessTokenClaims: CompactJSONObject {
    /// The claims, as every access token carries them (see ``CompactJSONObject``).
    package func writeMembers(to object: inout CompactJSON.ObjectWriter) {
        object.member("aud", aud)
        object.member("client_id", client_id)
        object.member("cv", cv)
        object.member("exp", exp)
        object.member("iat", iat)
        object.member("iss", iss)
        object.member("jti", jti)
        object.member("scope", scope)
        object.member("sid", sid)
        object.member("sub", sub)
    }
}

extension TokenService.IDTokenClaims: CompactJSONObject {
    func writeMembers(to object: inout CompactJSON.ObjectWriter) {
        object.member("amr", amr)
        object.member("aud", aud)
        object.member("auth_time", auth_time)
        object.member("email", email)
        object.member("email_verified", email_verified)
        object.member("exp", exp)
        object.member("iat", iat)
        object.member("iss", iss)
        object.member("nonce", nonce)
        object.member("sub", sub)
    }
}

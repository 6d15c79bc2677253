public import Foundation

/// The claims of an OpenID Connect ID token that the SDK checks.
///
/// The SDK does **not** verify the token's signature: it received the token directly
/// from the token endpoint over TLS, which OpenID Connect Core §3.1.3.7 (item 6) allows
/// to stand in for signature validation. Do not use this type for ID tokens from any
/// other channel (a URL, another app, your own API).
public struct IDTokenClaims: Sendable, Equatable {
    /// `iss`.
    public let issuer: String
    /// `sub`: the account's stable identifier.
    public let subject: String
    /// `aud`, as a list.
    public let audiences: [String]
    /// `azp`, if present.
    public let authorizedParty: String?
    /// `exp`.
    public let expiresAt: Date
    /// `iat`.
    public let issuedAt: Date
    /// `nonce`, if present.
    public let nonce: String?
    /// `email`, if present.
    public let email: String?

    /// The claims in the payload of the compact JWS `idToken`.
    ///
    /// - Throws: ``LatchkeyClientError`` `authorization_failed` with reason
    ///   `id_token_malformed`, or `id_token_unsigned` for `alg: none`.
    public init(idToken: ClientSecret) throws {
        let parts = idToken.exposed.split(separator: ".", omittingEmptySubsequences: false)
        guard idToken.exposed.utf8.count <= 16 * 1024, parts.count == 3,
            let headerData = Self.decode(parts[0]), let payloadData = Self.decode(parts[1]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any],
            let alg = header["alg"] as? String
        else { throw Self.failed("id_token_malformed") }
        guard alg.lowercased() != "none", !parts[2].isEmpty else { throw Self.failed("id_token_unsigned") }
        let audiences: [String]
        if let single = payload["aud"] as? String {
            audiences = [single]
        } else if let list = payload["aud"] as? [Any] {
            audiences = list.compactMap { $0 as? String }
        } else {
            throw Self.failed("id_token_malformed")
        }
        guard let issuer = payload["iss"] as? String, let subject = payload["sub"] as? String,
            let exp = payload["exp"] as? NSNumber, let iat = payload["iat"] as? NSNumber
        else { throw Self.failed("id_token_malformed") }
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
        self.authorizedParty = payload["azp"] as? String
        self.expiresAt = Date(timeIntervalSince1970: exp.doubleValue)
        self.issuedAt = Date(timeIntervalSince1970: iat.doubleValue)
        self.nonce = payload["nonce"] as? String
        self.email = payload["email"] as? String
    }

    /// How far in the future `iat` may lie by default: 600 seconds, the ±10 minutes
    /// AppAuth-iOS allows (`kOIDAuthorizationSessionIATMaxSkew`), because a phone's clock
    /// may run minutes behind the server's and OpenID Connect Core §3.1.3.7 (rule 10)
    /// leaves the range to the client.
    public static let defaultIssuedAtLeeway: TimeInterval = 600

    /// Checks the claims (OpenID Connect Core §3.1.3.7): `iss` is `metadata`'s issuer;
    /// `aud` contains `clientID` (and with several audiences `azp` is `clientID`); the
    /// token has not expired at `now` (with `leeway` seconds of clock skew allowed) and
    /// was not issued more than `issuedAtLeeway` seconds after `now`; `nonce` equals
    /// `expectedNonce` when one is given.
    ///
    /// - Throws: ``LatchkeyClientError`` `authorization_failed` with reason
    ///   `id_token_issuer`, `id_token_audience`, `id_token_expired`,
    ///   `id_token_issued_in_future` or `id_token_nonce`.
    public func validate(
        metadata: AuthorizationServerMetadata, clientID: String, expectedNonce: String?, now: Date, leeway: TimeInterval = 60,
        issuedAtLeeway: TimeInterval = defaultIssuedAtLeeway
    ) throws {
        guard metadata.isIssuer(issuer) else { throw Self.failed("id_token_issuer") }
        guard audiences.contains(clientID) else { throw Self.failed("id_token_audience") }
        if audiences.count > 1, authorizedParty != clientID { throw Self.failed("id_token_audience") }
        if let authorizedParty, authorizedParty != clientID { throw Self.failed("id_token_audience") }
        guard now.addingTimeInterval(-leeway) < expiresAt else { throw Self.failed("id_token_expired") }
        guard issuedAt <= now.addingTimeInterval(issuedAtLeeway) else { throw Self.failed("id_token_issued_in_future") }
        if let expectedNonce, nonce != expectedNonce { throw Self.failed("id_token_nonce") }
    }

    private static func decode(_ part: Substring) -> Data? {
        guard Base64URL.isAlphabet(part) else { return nil }
        var text = String(part).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    private static func failed(_ reason: String) -> LatchkeyClientError {
        LatchkeyClientError(.authorizationFailed, reasons: [reason])
    }
}

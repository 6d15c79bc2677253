import Foundation
@testable import LatchkeyClient
import Testing

/// What the SDK takes from an authorization response (RFC 6749 §4.1.2, RFC 9207 §2.4,
/// RFC 9700 §4.2.4), checked on callbacks an attacker could shape.
@Suite struct AuthorizationResponseTests {
    static let issuer = URL(string: "https://id.example.com")!

    static func request(issParameter: Bool = true) throws -> AuthorizationRequest {
        let metadata = try AuthorizationServerMetadata(
            issuer: issuer, authorizationEndpoint: URL(string: "https://id.example.com/oauth/authorize")!,
            tokenEndpoint: URL(string: "https://id.example.com/oauth/token")!,
            revocationEndpoint: URL(string: "https://id.example.com/oauth/revoke")!,
            authorizationResponseIssParameterSupported: issParameter)
        return try AuthorizationRequest(
            metadata: metadata, clientID: "ios-app", redirectURI: URL(string: "com.example.app:/oauth/callback")!,
            scopes: ["openid"], state: "state-123", nonce: "nonce-456")
    }

    static let base = "com.example.app:/oauth/callback?state=state-123&iss=https%3A%2F%2Fid.example.com"

    @Test("parameters the SDK does not know are ignored: the code comes through", arguments: [
        "&code=abc&session_state=xyz", "&scope=openid&code=abc&token_type=bearer&expires_in=3600",
        "&code=abc&error_uri=https%3A%2F%2Fevil.example&ext%C3%A9=%00", "&code=abc&access_token=forged&id_token=forged",
    ])
    func unknownParametersIgnored(extra: String) throws {
        #expect(try Self.request().authorizationCode(from: URL(string: Self.base + extra)!).exposed == "abc")
    }

    @Test("an error from a server other than the issuer is reported as the wrong issuer, never as its error", arguments: [
        "com.example.app:/oauth/callback?error=access_denied&error_description=Denied&state=state-123&iss=https%3A%2F%2Fevil.example",
        "com.example.app:/oauth/callback?error=login_required&state=state-123&iss=https%3A%2F%2Fid.example.com.evil.example",
        "com.example.app:/oauth/callback?error=consent_required&state=state-123&iss=https%3A%2F%2FID.example.com",
    ])
    func errorWithWrongIssuer(callback: String) throws {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["issuer_mismatch"])) {
            try Self.request().authorizationCode(from: URL(string: callback)!)
        }
    }

    @Test("without the server's iss promise, a response carrying iss is discarded, even one naming the issuer", arguments: [
        "com.example.app:/oauth/callback?code=c&state=state-123&iss=https%3A%2F%2Fid.example.com",
        "com.example.app:/oauth/callback?error=access_denied&state=state-123&iss=https%3A%2F%2Fid.example.com",
    ])
    func issWithoutThePromise(callback: String) throws {
        #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["issuer_not_announced"])) {
            try Self.request(issParameter: false).authorizationCode(from: URL(string: callback)!)
        }
    }

    @Test("a request's state serves one answer: the same callback, or another with its state, is refused after the first")
    func stateServesOneAnswer() throws {
        let request = try Self.request()
        let copy = request
        #expect(try request.authorizationCode(from: URL(string: Self.base + "&code=first")!).exposed == "first")
        for code in ["first", "second"] {
            #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["state_used"])) {
                try copy.authorizationCode(from: URL(string: Self.base + "&code=\(code)")!)
            }
        }
        // A refused callback does not use the state up: the real answer that follows still passes.
        let other = try Self.request()
        #expect(throws: LatchkeyClientError.self) { try other.authorizationCode(from: URL(string: Self.base)!) }
        #expect(try other.authorizationCode(from: URL(string: Self.base + "&code=real")!).exposed == "real")
    }
}

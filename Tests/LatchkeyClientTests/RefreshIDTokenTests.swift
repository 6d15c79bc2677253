import Foundation
@testable import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// e2e/expired_id_token_server.py: a token endpoint that rotates the refresh token and
/// answers with an ID token that expired an hour ago.
@Suite(.enabled(if: PythonHelper.python != nil, "LATCHKEY_TEST_PYTHON names a Python (make test sets it)"))
struct RefreshIDTokenTests {
    @Test("a refresh whose ID token fails its checks still returns the rotated tokens, without the ID token")
    func rotatedTokensAreKept() async throws {
        let server = try PythonHelper(script: "expired_id_token_server.py")
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        let metadata = try AuthorizationServerMetadata(
            issuer: base, authorizationEndpoint: base.appendingPathComponent("authorize"),
            tokenEndpoint: base.appendingPathComponent("token"))
        let client = OAuthClient(issuer: base, clientID: "app")
        let response = try await client.refresh(ClientSecret("refresh-1"), metadata: metadata)
        #expect(response.refreshToken == ClientSecret("refresh-2"))
        #expect(response.accessToken == ClientSecret("access-2"))
        #expect(response.idToken == nil)
    }
}

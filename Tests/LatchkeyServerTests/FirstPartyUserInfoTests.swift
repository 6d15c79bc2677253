import Foundation
@testable import LatchkeyCore
@testable import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// A first-party login (`/auth/login`) gets the scopes its app needs to learn who signed in:
/// `/userinfo` answers its access tokens, and those of every refresh, with the account's id
/// and address.
@Suite struct FirstPartyUserInfoTests {
    private static func json(_ path: String, _ body: [String: String]) throws -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: path, headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: try JSONSerialization.data(withJSONObject: body))
    }

    private static func data(_ response: HTTPResponse) throws -> [String: Any] {
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(body["data"] as? [String: Any])
    }

    private static func userInfo(_ harness: OAuthFlowTests.Harness, _ accessToken: Any?) throws -> HTTPResponse {
        let token = try #require(accessToken as? String)
        return harness.app.router.handle(HTTPRequest(
            method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(token)")])))
    }

    @Test("an /auth/login access token gets sub and email from /userinfo, and so does each refreshed one")
    func userInfoAfterPasswordSignIn() throws {
        let harness = try OAuthFlowTests.Harness()
        let login = harness.app.router.handle(try Self.json(
            "/auth/login", ["email": "person@example.com", "password": OAuthFlowTests.password]))
        #expect(login.status == 200)
        let signedIn = try Self.data(login)
        // Directus's shape and the device token (which Directus SDKs ignore): the scope is not part of it.
        #expect(Set(signedIn.keys) == ["access_token", "refresh_token", "expires", "device_token"])
        let claims = try payload(try #require(signedIn["access_token"] as? String), harness).claims
        #expect(claims["scope"] as? String == "openid email")

        let first = try Self.userInfo(harness, signedIn["access_token"])
        #expect(first.status == 200)
        let identity = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
        #expect(identity["sub"] as? String == harness.account.id && identity["email"] as? String == "person@example.com")
        #expect(identity["email_verified"] as? Bool == true && identity.count == 3)

        harness.clock.advance(by: 60)
        let refresh = harness.app.router.handle(try Self.json(
            "/auth/refresh", ["refresh_token": try #require(signedIn["refresh_token"] as? String)]))
        #expect(refresh.status == 200)
        let refreshed = try Self.userInfo(harness, try Self.data(refresh)["access_token"])
        #expect(refreshed.status == 200)
        #expect(refreshed.body == first.body)
    }
}

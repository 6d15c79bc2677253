import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// RFC 9068 §4, one check at a time: a token signed with the server's own active key that
/// differs from a real access token in one thing only is refused — by `verifyAccessToken`
/// and at `/userinfo`.
@Suite struct AccessTokenChecksTests {
    /// A real access token's header and claims, and a function that signs changed ones with the server's active key.
    private static func issued(_ harness: OAuthFlowTests.Harness) throws -> (claims: [String: Any], sign: (String, [String: Any]) throws -> String) {
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let (header, claims) = try payload(access, harness)
        #expect(header.typ == "at+jwt")
        let key = harness.app.keyRing.activeKey
        return (claims, { typ, claims in
            try JWS.sign(
                header: JWSHeader(alg: key.algorithm, kid: key.kid, typ: typ),
                payload: try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]), key: key)
        })
    }

    private static func userinfo(_ harness: OAuthFlowTests.Harness, _ token: String) -> Int {
        harness.app.router.handle(HTTPRequest(
            method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(token)")]))).status
    }

    @Test("a validly signed token whose typ is not at+jwt (or application/at+jwt) is refused", arguments: [
        "JWT", "jwt", "", "at+jwt ", "at+jwt2", "application/jwt", "application/at+jwt; x=1", "dpop+jwt",
    ])
    func typMustBeAtJWT(typ: String) throws {
        let harness = try OAuthFlowTests.Harness()
        let (claims, sign) = try Self.issued(harness)
        for accepted in ["at+jwt", "application/at+jwt", "AT+JWT"] {
            let resigned = try sign(accepted, claims)
            #expect(try harness.app.tokens.verifyAccessToken(Redacted(resigned)) != nil, "\(accepted)")
            #expect(Self.userinfo(harness, resigned) == 200)
        }

        let other = try sign(typ, claims)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(other)) == nil)
        #expect(Self.userinfo(harness, other) == 401)
    }

    @Test("a validly signed at+jwt whose iss is not exactly the issuer is refused", arguments: [
        "https://evil.example", "https://auth.example.com/", "https://AUTH.example.com", "http://auth.example.com", "",
    ])
    func issMustMatch(iss: String) throws {
        let harness = try OAuthFlowTests.Harness()
        let (claims, sign) = try Self.issued(harness)
        #expect(claims["iss"] as? String == "https://auth.example.com")
        var changed = claims
        changed["iss"] = iss
        let token = try sign("at+jwt", changed)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(token)) == nil)
        #expect(Self.userinfo(harness, token) == 401)
    }
}

/// RFC 7662 §2.1: `token_type_hint` is only a hint; a token is found whatever type it names.
@Suite struct IntrospectionHintTests {
    @Test("an access token sent with a wrong, unknown or empty hint is still found active", arguments: [
        "refresh_token", "access_token", "id_token", "something_else", "",
    ])
    func wrongHint(hint: String) throws {
        let harness = try OAuthFlowTests.Harness()
        let (_, secret) = try harness.clients.create(
            id: "api", redirectURIs: ["https://api.example/cb"], confidential: true, firstParty: true, scopes: [],
            introspect: true, now: harness.clock.now())
        let basic = "Basic " + Data("api:\(try #require(secret).exposed)".utf8).base64EncodedString()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let response = harness.post(
            "/oauth/introspect", [("token", access), ("token_type_hint", hint)], headers: [("Authorization", basic)])
        #expect(response.status == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(answer["active"] as? Bool == true)
        #expect(answer["sub"] as? String == harness.account.id)
    }
}

/// ASVS V6.2.10: nothing expires a password; only a change or a reset replaces it.
@Suite struct PasswordAgeTests {
    @Test("a password still signs in after three years on the test clock, with no prompt to change it")
    func oldPasswordStillWorks() throws {
        let harness = try OAuthFlowTests.Harness()
        func login() throws -> HTTPResponse {
            let json = try JSONSerialization.data(withJSONObject: ["email": "person@example.com", "password": OAuthFlowTests.password])
            return harness.app.router.handle(jsonRequest("/auth/login", String(decoding: json, as: UTF8.self)))
        }
        #expect(try login().status == 200)
        harness.clock.advance(by: 3 * 366 * 86400)
        let later = try login()
        #expect(later.status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: later.body) as? [String: Any])
        let data = try #require(body["data"] as? [String: Any])
        #expect(data["access_token"] is String && data["refresh_token"] is String)
        #expect(Set(data.keys) == ["access_token", "refresh_token", "expires", "device_token"])
        // The OAuth sign-in form takes it as well.
        #expect(try harness.authorize()["code"] != nil)
    }
}

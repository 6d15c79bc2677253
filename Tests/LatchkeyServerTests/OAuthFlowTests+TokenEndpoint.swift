import Foundation
import LatchkeyCrypto
import LatchkeyJOSE
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import Testing
import LatchkeyTestSupport

/// The token endpoint, client authentication, introspection, forged and hostile input, and
/// the metadata that advertises them.
extension OAuthFlowTests {
    @Test("a refresh token works only for its own client and is not consumed by another")
    func refreshBoundToClient() throws {
        let harness = try Harness()
        _ = try harness.clients.create(
            id: "other-app", redirectURIs: ["com.example.other:/cb"], confidential: false, firstParty: true, scopes: [],
            now: harness.clock.now())
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let refresh = try #require(body["refresh_token"] as? String)
        let stolen = harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "other-app")])
        #expect(stolen.status == 400)
        let directus = harness.app.router.handle(jsonRequest("/auth/refresh", #"{"refresh_token":"\#(refresh)"}"#))
        #expect(directus.status == 401)
        let own = harness.post("/oauth/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "ios-app")])
        #expect(own.status == 200)
    }

    @Test("the token endpoint refuses repeated parameters, other grants and non-form bodies in OAuth's error shape")
    func tokenEndpointErrors() throws {
        let harness = try Harness()
        let cases: [(HTTPResponse, Int, String)] = [
            (harness.post("/oauth/token", [("grant_type", "refresh_token"), ("grant_type", "refresh_token"), ("client_id", "ios-app")]), 400, "invalid_request"),
            (harness.post("/oauth/token", [("grant_type", "password"), ("client_id", "ios-app"), ("username", "a"), ("password", "b")]), 400, "unsupported_grant_type"),
            (harness.post("/oauth/token", [("grant_type", "authorization_code"), ("client_id", "nobody")]), 401, "invalid_client"),
            (harness.app.router.handle(jsonRequest("/oauth/token", #"{"grant_type":"refresh_token"}"#)), 400, "invalid_request"),
        ]
        for (response, status, error) in cases {
            #expect(response.status == status)
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(body["error"] as? String == error)
            #expect(response.headers["Cache-Control"] == "no-store")
        }
    }

    @Test("a confidential client must authenticate with exactly one method; introspection requires it")
    func confidentialClients() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "backend", redirectURIs: ["https://backend.example/cb"], confidential: true, firstParty: true, scopes: [],
            introspect: true, now: harness.clock.now())
        let secretValue = try #require(secret).exposed
        let basic = "Basic " + Data("backend:\(secretValue)".utf8).base64EncodedString()
        let wrongBasic = "Basic " + Data("backend:wrong".utf8).base64EncodedString()
        let token = [("token", "not-a-token")]

        #expect(harness.post("/oauth/introspect", token, headers: [("Authorization", basic)]).status == 200)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "backend"), ("client_secret", secretValue)]).status == 200)
        let wrong = harness.post("/oauth/introspect", token, headers: [("Authorization", wrongBasic)])
        #expect(wrong.status == 401)
        #expect(wrong.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "backend")]).status == 401)
        #expect(harness.post("/oauth/introspect", token + [("client_id", "ios-app")]).status == 401)
        #expect(harness.post(
            "/oauth/introspect", token + [("client_id", "backend"), ("client_secret", secretValue)],
            headers: [("Authorization", basic)]).status == 400)
    }

    @Test("only resource servers introspect; they never see another client's refresh token as active")
    func introspectionIsForResourceServers() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "web", redirectURIs: ["https://web.example/cb"], confidential: true, firstParty: true, scopes: [],
            now: harness.clock.now())
        let basic = "Basic " + Data("web:\(try #require(secret).exposed)".utf8).base64EncodedString()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let refused = harness.post("/oauth/introspect", [("token", try #require(body["access_token"] as? String))], headers: [("Authorization", basic)])
        #expect(refused.status == 403)
        let error = try #require(try JSONSerialization.jsonObject(with: refused.body) as? [String: Any])
        #expect(error["error"] as? String == "unauthorized_client")
        #expect(throws: LatchkeyError.self) {
            try harness.clients.create(
                id: "public-api", redirectURIs: ["https://api.example/cb"], confidential: false, firstParty: true, scopes: [],
                introspect: true, now: harness.clock.now())
        }
    }

    @Test("introspection says only active:false for a token whose login ended or whose account was disabled")
    func introspection() throws {
        let harness = try Harness()
        let (_, secret) = try harness.clients.create(
            id: "api", redirectURIs: ["https://api.example/cb"], confidential: true, firstParty: true, scopes: [],
            introspect: true, now: harness.clock.now())
        let apiSecret = try #require(secret)
        let basic = "Basic " + Data("api:\(apiSecret.exposed)".utf8).base64EncodedString()
        func introspect(_ token: String) throws -> [String: Any] {
            let response = harness.post("/oauth/introspect", [("token", token)], headers: [("Authorization", basic)])
            return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        }
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let refresh = try #require(body["refresh_token"] as? String)
        let active = try introspect(access)
        #expect(active["active"] as? Bool == true)
        #expect(active["sub"] as? String == harness.account.id)
        #expect(active["client_id"] as? String == "ios-app")
        // Another client's refresh token is never active to a resource server (issue 11).
        #expect(try introspect(refresh) as NSDictionary == ["active": false])

        try harness.app.accounts.disable(email: "person@example.com")
        for token in [access, refresh, "garbage"] {
            let inactive = try introspect(token)
            #expect(inactive.count == 1)
            #expect(inactive["active"] as? Bool == false)
        }
    }

    @Test("an access token with alg none, signed by another key under our kid, or expired does not verify")
    func forgedAccessTokens() throws {
        let harness = try Harness()
        let (_, body) = try harness.exchange(try #require(try harness.authorize()["code"]))
        let access = try #require(body["access_token"] as? String)
        let parts = access.split(separator: ".")
        let kid = harness.app.keyRing.activeKey.kid

        let noneHeader = Base64URL.encode(Data(#"{"alg":"none","kid":"\#(kid)","typ":"at+jwt"}"#.utf8))
        let unsigned = "\(noneHeader).\(parts[1])."
        let attacker = try SigningKey.generate(.es256)
        let forged = try JWS.sign(
            header: JWSHeader(alg: .es256, kid: kid, typ: "at+jwt"), payload: try #require(Base64URL.decode(String(parts[1]))),
            key: attacker)
        for token in [unsigned, forged] {
            #expect(try harness.app.tokens.verifyAccessToken(Redacted(token)) == nil)
            let userinfo = harness.app.router.handle(HTTPRequest(
                method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(token)")])))
            #expect(userinfo.status == 401)
            #expect(userinfo.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        }
        let valid = harness.app.router.handle(HTTPRequest(
            method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", "Bearer \(access)")])))
        #expect(valid.status == 200)
        harness.clock.advance(by: 601)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access)) == nil)
    }

    @Test("hostile input to the OAuth endpoints gets a 4xx, never a 5xx")
    func hostileInputIsClientError() throws {
        let harness = try Harness()
        let long = String(repeating: "a", count: 5000)
        let authorizations: [[(String, String)]] = [
            [], [("client_id", "ios-app")], [("client_id", "../etc"), ("redirect_uri", "x")],
            Self.authorizationQuery(redirect: "http://127.0.0.1:99999/callback"),
            Self.authorizationQuery(redirect: "http://127.0.0.1:1/callback\r\nSet-Cookie: x=y"),
            Self.authorizationQuery(extra: [("state", long), ("nonce", long), ("login_hint", long), ("ui_locales", long)]),
            Self.authorizationQuery(extra: [("max_age", "99999999999999999999"), ("prompt", "none login")]),
            Self.authorizationQuery(extra: [("scope", "\u{0}\u{FFFF} openid")]),
            Self.authorizationQuery(extra: Array(repeating: ("x", "y"), count: 40)),
        ]
        for query in authorizations {
            let response = harness.get("/oauth/authorize", query, cookies: ["latchkey_session": long, "latchkey_csrf": "\u{7F}"])
            #expect(response.status < 500)
            #expect(response.headers["Location"].map { !$0.contains("\r") && !$0.contains("\n") } ?? true)
        }
        let bodies: [[(String, String)]] = [
            [("grant_type", "authorization_code"), ("client_id", "ios-app"), ("code", long)],
            [("grant_type", "authorization_code"), ("client_id", "ios-app"), ("code", "x"), ("redirect_uri", "y"), ("code_verifier", long)],
            [("grant_type", "refresh_token"), ("client_id", "ios-app"), ("refresh_token", long), ("scope", long)],
            [("grant_type", "refresh_token"), ("client_id", long), ("refresh_token", "x")],
            [("token", String(repeating: "e", count: 20_000)), ("client_id", "ios-app")],
            [("token", "a.b.c"), ("client_id", "ios-app")],
        ]
        let authorizationHeaders = ["Basic", "Basic ", "Basic !!!", "Basic " + Data(":".utf8).base64EncodedString(),
                                    "Basic " + Data("%zz:%zz".utf8).base64EncodedString(), "Basic " + long, "Bearer x"]
        for path in ["/oauth/token", "/oauth/revoke", "/oauth/introspect", "/oauth/authorize"] {
            for body in bodies {
                #expect(harness.post(path, body).status < 500)
                for header in authorizationHeaders {
                    #expect(harness.post(path, body, headers: [("Authorization", header)]).status < 500)
                }
            }
        }
        for header in ["Bearer", "Bearer ", "Bearer " + long, "bearer a.b.c"] {
            let response = harness.app.router.handle(HTTPRequest(method: "GET", path: "/userinfo", headers: HTTPHeaders([("Authorization", header)])))
            #expect(response.status == 401)
        }
    }

    @Test("the metadata advertises exactly what is implemented")
    func metadata() throws {
        let harness = try Harness()
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            let response = harness.get(path, [])
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(document["issuer"] as? String == "https://auth.example.com")
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["response_types_supported"] as? [String] == ["code"])
            #expect(document["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
            // Request objects are not supported; request_uri_parameter_supported defaults to true when absent.
            #expect(document["request_uri_parameter_supported"] as? Bool == false)
            #expect(document["request_parameter_supported"] as? Bool == false)
            for key in ["authorization_endpoint", "token_endpoint", "revocation_endpoint", "introspection_endpoint", "userinfo_endpoint", "jwks_uri"] {
                let text = try #require(document[key] as? String)
                let url = try #require(URL(string: text))
                #expect(harness.app.router.routes.contains { $0.path == url.path })
            }
        }
    }
}

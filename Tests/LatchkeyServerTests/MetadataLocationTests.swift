import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import Testing

/// RFC 8414 §3: the metadata is at the well-known path inserted between the host and the
/// issuer's path; the server sees the paths a proxy that strips the issuer's path forwards.
@Suite struct MetadataLocationTests {
    private static func get(_ app: ServerApplication, _ path: String) -> HTTPResponse {
        app.router.handle(HTTPRequest(method: "GET", path: path))
    }

    @Test("an issuer with a path has its metadata at /.well-known/oauth-authorization-server/<path> too", arguments: [
        ("https://example.com/auth", "/.well-known/oauth-authorization-server/auth"),
        ("https://example.com/tenants/one", "/.well-known/oauth-authorization-server/tenants/one"),
    ])
    func issuerWithAPath(issuer: String, location: String) throws {
        let app = try makeApplication(["LATCHKEY_PUBLIC_URL": issuer])
        let response = Self.get(app, location)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let metadata = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(metadata["issuer"] as? String == issuer)
        #expect(metadata["token_endpoint"] as? String == issuer + "/oauth/token")
        // The locations below the issuer (what a proxy maps ISSUER/.well-known/… to) answer the same document.
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            #expect(Self.get(app, path).body == response.body)
        }
    }

    @Test("an issuer without a path has no second location")
    func issuerWithoutAPath() throws {
        let app = try makeApplication(["LATCHKEY_PUBLIC_URL": "https://example.com"])
        #expect(Self.get(app, "/.well-known/oauth-authorization-server").status == 200)
        #expect(!app.router.routes.contains { $0.path.hasPrefix("/.well-known/oauth-authorization-server/") })
    }
}

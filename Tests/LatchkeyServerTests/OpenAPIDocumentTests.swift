import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyJOSE
@testable import LatchkeyServer
import Testing

/// `/openapi.json` is made from the server's own tables, so a grant or a language added in
/// one place shows in every other: these tests fail when two of them disagree.
@Suite struct OpenAPIDocumentTests {
    private static func document(_ app: ServerApplication) throws -> [String: Any] {
        let response = app.router.handle(HTTPRequest(method: "GET", path: "/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    private static func metadata(_ app: ServerApplication) throws -> [String: Any] {
        let response = app.router.handle(HTTPRequest(method: "GET", path: "/.well-known/openid-configuration"))
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test("every route the router serves has its operation described, and no description is left over")
    func everyRouteDescribed() throws {
        // An issuer with a path, so that every route exists (RFC 8414 §3's metadata location).
        let app = try makeApplication(["LATCHKEY_PUBLIC_URL": "http://127.0.0.1:8080/id"])
        #expect(OpenAPIDocument.undocumented(app.router.routes) == [])
        #expect(Set(OpenAPIOperations.byRouteName.keys) == Set(app.router.routes.map(\.name)))
    }

    @Test("the token request's grant types are the metadata's, the registry's, and each grant's parameters are described")
    func grantsAgree() throws {
        let app = try makeApplication()
        let schemas = try #require((try Self.document(app)["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let tokenRequest = try #require(schemas["TokenRequest"] as? [String: Any])
        let properties = try #require(tokenRequest["properties"] as? [String: Any])
        let grantTypes = try #require((properties["grant_type"] as? [String: Any])?["enum"] as? [String])
        #expect(grantTypes == app.grants.grantTypes)
        #expect(grantTypes == (try Self.metadata(app))["grant_types_supported"] as? [String])
        for grant in app.grants.grants {
            for parameter in grant.parameters {
                #expect(properties[parameter.name] != nil, "\(grant.grantType): \(parameter.name)")
            }
        }
        // The token endpoint names them when it refuses another.
        try app.store.createClient(OAuthClient(
            id: "app", redirectURIs: [try RedirectURI("com.example.app:/oauth")], isConfidential: false, secretDigest: nil,
            isFirstParty: true, scopes: [], createdAt: Date(), idTokenAlgorithm: .rs256))
        let refused = app.router.handle(jsonRequest(
            "/oauth/token", "grant_type=password&client_id=app", contentType: "application/x-www-form-urlencoded"))
        let body = String(decoding: refused.body, as: UTF8.self)
        #expect(refused.status == 400 && body.contains("unsupported_grant_type"))
        for grantType in grantTypes { #expect(body.contains(grantType)) }
    }

    @Test("every language list in the document is the server's language list, as the metadata's ui_locales_supported")
    func languagesAgree() throws {
        let app = try makeApplication()
        let languages = SupportedLanguage.allCases.map(\.rawValue)
        #expect((try Self.metadata(app))["ui_locales_supported"] as? [String] == languages)
        var lists: [[String]] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let values = object["enum"] as? [Any], values.contains(where: { $0 as? String == "en" }) {
                    lists.append(values.compactMap { $0 as? String })
                }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(try Self.document(app))
        #expect(lists.count >= 2)
        for list in lists { #expect(list == languages) }
    }
}

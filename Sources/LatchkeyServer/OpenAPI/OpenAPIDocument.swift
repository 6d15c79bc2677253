import Foundation
import LatchkeyCore
import LatchkeyHTTP

/// The OpenAPI 3.1 description of every route, served at `/openapi.json`, made from the
/// server's own tables: the paths, methods, operation ids and error shapes from the route
/// table, the languages from ``SupportedLanguage``, the grant types and their parameters from
/// ``TokenGrants``, and what each route does from ``OpenAPIOperations``.
enum OpenAPIDocument {
    /// Where the document is served.
    static let path = "/openapi.json"

    /// The route that serves the document describing `routes` and itself.
    static func route(describing routes: [Route], grants: TokenGrants) -> Route {
        let own = DocumentedRoute(method: "GET", path: path, name: "openapi", errorShape: .latchkey)
        let body = Data(document(for: routes.map(DocumentedRoute.init) + [own], grants: grants).text.utf8)
        return Route("GET", path, name: own.name, cacheable: true) { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        }
    }

    /// The names of the routes among `routes` that ``OpenAPIOperations`` does not describe.
    static func undocumented(_ routes: [Route]) -> [String] {
        routes.map(\.name).filter { OpenAPIOperations.byRouteName[$0] == nil }
    }

    /// What the document needs of a route.
    private struct DocumentedRoute {
        let method: String
        let path: String
        let name: String
        let errorShape: ErrorShape

        init(method: String, path: String, name: String, errorShape: ErrorShape) {
            self.method = method
            self.path = path
            self.name = name
            self.errorShape = errorShape
        }

        init(_ route: Route) {
            self.init(method: route.method, path: route.path, name: route.name, errorShape: route.errorShape)
        }
    }

    private static func document(for routes: [DocumentedRoute], grants: TokenGrants) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for route in routes {
            let operations = paths[route.path] ?? .object([:])
            paths[route.path] = operations.merging([route.method.lowercased(): operation(route)])
        }
        return .object([
            "openapi": .string("3.1.0"),
            "info": .object([
                "title": .string("Latchkey"),
                "version": .string(LatchkeyVersion.current),
                "description": .string(
                    "Account recovery and sign-in for Swift apps: password reset by email with universal links, an OAuth 2.0 "
                        + "authorization server for native apps (code + PKCE S256, JWT access tokens, rotating refresh tokens) "
                        + "and Directus-compatible login."),
            ]),
            "components": .object([
                "schemas": .object(OpenAPISchemas.all(grants: grants)),
                "securitySchemes": .object([
                    "bearer": .object(["type": .string("http"), "scheme": .string("bearer"), "bearerFormat": .string("JWT")])
                ]),
            ]),
            "paths": .object(paths),
        ])
    }

    private static func operation(_ route: DocumentedRoute) -> JSONValue {
        guard let described = OpenAPIOperations.byRouteName[route.name] else {
            return .object(["operationId": .string(route.name), "summary": .string(route.name), "responses": .object([:])])
        }
        var operation: [String: JSONValue] = [
            "operationId": .string(route.name),
            "summary": .string(described.summary),
            "responses": .object(described.responses.mapValues { response($0, shape: route.errorShape) }),
        ]
        if let description = described.description { operation["description"] = .string(description) }
        if !described.parameters.isEmpty { operation["parameters"] = .array(described.parameters) }
        if let body = described.requestBody {
            operation["requestBody"] = .object([
                "required": .bool(body.required),
                "content": .object([body.mediaType: .object(["schema": body.schema])]),
            ])
        }
        if described.bearer { operation["security"] = .array([.object(["bearer": .array([])])]) }
        return .object(operation)
    }

    private static func response(_ response: OpenAPIOperation.Response, shape: ErrorShape) -> JSONValue {
        switch response {
        case .answer(let description, let mediaType, let schema, let headers):
            var object: [String: JSONValue] = ["description": .string(description)]
            if let mediaType { object["content"] = .object([mediaType: .object(schema.map { ["schema": $0] } ?? [:])]) }
            if let headers { object["headers"] = headers }
            return .object(object)
        case .error(let description, let retryAfter):
            var object: [String: JSONValue] = ["description": .string(description), "content": errorContent(shape)]
            if retryAfter {
                object["headers"] = .object([
                    "Retry-After": .object(["schema": .object(["type": .string("integer")]), "description": .string("Seconds to wait.")])
                ])
            }
            return .object(object)
        }
    }

    /// The content of an error answer in `shape`.
    private static func errorContent(_ shape: ErrorShape) -> JSONValue {
        let schema: String
        switch shape {
        case .latchkey: schema = "Error"
        case .latchkeyAndDirectus: schema = "ResetError"
        case .directus: schema = "DirectusError"
        case .oauth, .bearer: schema = "OAuthError"
        case .page: return .object(["text/html": .object([:])])
        }
        return .object(["application/json": .object(["schema": .reference(schema)])])
    }
}

import LatchkeyCore
import LatchkeyHTTP
import Foundation

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`
/// (Prometheus text) and `/openapi.json` (the API description).
struct OperationsRoutes {
    let store: any Store
    let metrics: ServerMetrics
    /// Clients allowed to read `/metrics`; everyone else gets 404, because mail counters
    /// move when a reset is requested for an existing account.
    let metricsClients: [String]

    var routes: [Route] {
        [
            Route("GET", "/healthz", name: "healthz") { _ in .json(200, ["status": "ok"]) },
            Route("GET", "/readyz", name: "readyz") { _ in
                store.isReady() ? .json(200, ["status": "ready"]) : .json(503, ["status": "unavailable"])
            },
            Route("GET", "/metrics", name: "metrics") { request in
                guard let client = IPAddress(request.clientIP), metricsClients.contains(where: { IPAddress($0) == client }) else {
                    throw LatchkeyError(.notFound, "There is nothing at this address.")
                }
                return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                             body: Data(metrics.render(outboxDepth: try? store.pendingMailCount()).utf8))
            },
            Route("GET", "/openapi.json", name: "openapi", cacheable: true) { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(OpenAPIDocument.json.utf8))
            },
        ]
    }
}

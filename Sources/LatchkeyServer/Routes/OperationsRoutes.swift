import Foundation

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`
/// (Prometheus text) and `/openapi.json` (the API description).
struct OperationsRoutes {
    let store: any Store
    let metrics: ServerMetrics

    var routes: [Route] {
        [
            Route("GET", "/healthz", name: "healthz") { _ in .json(200, ["status": "ok"]) },
            Route("GET", "/readyz", name: "readyz") { _ in
                store.isReady() ? .json(200, ["status": "ready"]) : .json(503, ["status": "unavailable"])
            },
            Route("GET", "/metrics", name: "metrics") { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                             body: Data(metrics.render(outboxDepth: try? store.pendingMailCount()).utf8))
            },
            Route("GET", "/openapi.json", name: "openapi", cacheable: true) { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(OpenAPIDocument.json.utf8))
            },
        ]
    }
}

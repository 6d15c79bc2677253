import Foundation
import LatchkeyCore
import LatchkeyHTTP

/// `/healthz` (the process answers), `/readyz` (the database answers) and `/metrics`
/// (Prometheus text). (`/openapi.json` is ``OpenAPIDocument``'s, made from every other route.)
struct OperationsRoutes {
    let status: ServerStatus
    /// Clients allowed to read `/metrics`; everyone else gets 404, because mail counters
    /// move when a reset is requested for an existing account.
    let metricsClients: [String]

    private struct Status: Encodable { let status: String }

    var routes: [Route] {
        let healthy = HTTPResponse.json(Status(status: "ok"))
        let ready = HTTPResponse.json(Status(status: "ready"))
        let unavailable = HTTPResponse.json(Status(status: "unavailable"), status: 503)
        let allowed = metricsClients.compactMap { IPAddress($0) }
        return [
            Route("GET", "/healthz", name: "healthz", lane: .eventThread) { _ in healthy },
            Route("GET", "/readyz", name: "readyz") { _ in status.isReady ? ready : unavailable },
            Route("GET", "/metrics", name: "metrics") { request in
                guard let client = IPAddress(request.clientIP), allowed.contains(client) else {
                    throw LatchkeyError(.notFound, "There is nothing at this address.")
                }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                    body: Data(status.metricsExposition().utf8))
            },
        ]
    }
}

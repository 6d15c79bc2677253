import LatchkeyCore
import LatchkeyHTTP
import Foundation

/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`, built from
/// configuration, so reset links (`/reset-password`) open the iOS or Android app.
struct AppLinkRoutes {
    let appleAppIDs: [String]
    let androidApps: [(package: String, fingerprint: String)]
    let paths: [String]

    var routes: [Route] {
        let aasa = appleAssociation()
        let assetLinks = androidAssetLinks()
        return [
            Route("GET", "/.well-known/apple-app-site-association", name: "apple_app_site_association", cacheable: true) { _ in aasa },
            Route("GET", "/.well-known/assetlinks.json", name: "assetlinks", cacheable: true) { _ in assetLinks },
        ]
    }

    private func appleAssociation() -> HTTPResponse {
        let components: [[String: Any]] = paths.map { ["/": $0, "#": "token=*"] }
        var response = HTTPResponse.json(200, [
            "applinks": ["details": appleAppIDs.isEmpty ? [] : [["appIDs": appleAppIDs, "components": components]]],
            "webcredentials": ["apps": appleAppIDs],
        ])
        response.headers.set("Cache-Control", "public, max-age=3600")
        return response
    }

    private func androidAssetLinks() -> HTTPResponse {
        let statements: [[String: Any]] = androidApps.map { app in
            [
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": ["namespace": "android_app", "package_name": app.package, "sha256_cert_fingerprints": [app.fingerprint]],
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: statements, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return HTTPResponse(status: 200, headers: HTTPHeaders([
            ("Content-Type", "application/json"), ("Cache-Control", "public, max-age=3600"),
        ]), body: data)
    }
}

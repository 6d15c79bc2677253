import LatchkeyCore
import LatchkeyHTTP

/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`, built from
/// configuration, so reset links (`/reset-password`) open the iOS or Android app.
struct AppLinkRoutes {
    let appleAppIDs: [String]
    let androidApps: [(package: String, fingerprint: String)]
    let paths: [String]

    var routes: [Route] {
        let aasa = Self.cached(AppleAssociation(appIDs: appleAppIDs, paths: paths))
        let assetLinks = Self.cached(androidApps.map { AndroidStatement(package: $0.package, fingerprint: $0.fingerprint) })
        return [
            Route("GET", "/.well-known/apple-app-site-association", name: "apple_app_site_association", cacheable: true) { _ in aasa },
            Route("GET", "/.well-known/assetlinks.json", name: "assetlinks", cacheable: true) { _ in assetLinks },
        ]
    }

    private static func cached(_ document: some Encodable) -> HTTPResponse {
        var response = HTTPResponse.json(document)
        response.headers.set("Cache-Control", "public, max-age=3600")
        return response
    }
}

/// The Apple App Site Association document: universal links for `paths` with a `token`
/// fragment, and shared web credentials, for every configured app.
private struct AppleAssociation: Encodable {
    struct Component: Encodable {
        let path: String
        let fragment = "token=*"

        enum CodingKeys: String, CodingKey {
            case path = "/", fragment = "#"
        }
    }
    struct Detail: Encodable {
        let appIDs: [String]
        let components: [Component]
    }
    struct AppLinks: Encodable { let details: [Detail] }
    struct WebCredentials: Encodable { let apps: [String] }

    let applinks: AppLinks
    let webcredentials: WebCredentials

    init(appIDs: [String], paths: [String]) {
        applinks = AppLinks(details: appIDs.isEmpty ? [] : [Detail(appIDs: appIDs, components: paths.map { Component(path: $0) })])
        webcredentials = WebCredentials(apps: appIDs)
    }
}

/// One Digital Asset Links statement: the Android app may handle every link of this site.
private struct AndroidStatement: Encodable {
    struct Target: Encodable {
        let namespace = "android_app"
        let package_name: String
        let sha256_cert_fingerprints: [String]
    }
    let relation = ["delegate_permission/common.handle_all_urls"]
    let target: Target

    init(package: String, fingerprint: String) {
        target = Target(package_name: package, sha256_cert_fingerprints: [fingerprint])
    }
}

import Foundation
import LatchkeyCore
import LatchkeyHTTP

/// Authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server`,
/// the same document at `/.well-known/openid-configuration`, and `GET`/`POST /userinfo`. When
/// the issuer has a path (`https://example.com/auth`, behind a proxy that strips it), the
/// metadata is also at `/.well-known/oauth-authorization-server/auth`, where RFC 8414 §3 puts
/// it: the well-known path between the host and the issuer's path, which the proxy forwards
/// unchanged (OpenID Connect Discovery's location, `ISSUER/.well-known/openid-configuration`,
/// is the route above).
///
/// Promises: the metadata advertises exactly what is implemented (PKCE `S256` only, the
/// `code` response type, the registered grants, every ID token algorithm); `/userinfo` answers only
/// to a valid access token with the `openid` scope — in the `Authorization` header, or in a
/// form-encoded POST body (RFC 6750 §2.2), never in the query string — and tells nothing else
/// (RFC 6750 errors; a bare `Bearer` challenge when no token is presented).
struct OpenIDRoutes {
    let tokens: TokenService
    /// The token endpoint's grants, which the metadata lists.
    let grants: TokenGrants
    /// The public URL every endpoint is under.
    let issuer: String

    /// The path of RFC 8414 §3's location for an issuer with a path, e.g.
    /// `/.well-known/oauth-authorization-server/auth`; nil for an issuer without one.
    static func metadataPathInsertedBeforeIssuerPath(issuer: String) -> String? {
        guard let path = URLComponents(string: issuer)?.percentEncodedPath, !path.isEmpty, path != "/" else { return nil }
        return "/.well-known/oauth-authorization-server" + (path.hasSuffix("/") ? String(path.dropLast()) : path)
    }

    var routes: [Route] {
        var metadata = HTTPResponse.json(ServerMetadata(issuer: issuer, grants: grants))
        metadata.headers.set("Cache-Control", "public, max-age=3600")
        let withIssuerPath = Self.metadataPathInsertedBeforeIssuerPath(issuer: issuer).map { path in
            Route("GET", path, name: "oauth_metadata_issuer_path", cacheable: true, lane: .eventThread) { [metadata] _ in metadata }
        }
        return (withIssuerPath.map { [$0] } ?? []) + [
            Route("GET", "/.well-known/oauth-authorization-server", name: "oauth_metadata", cacheable: true, lane: .eventThread) { [metadata] _ in
                metadata
            },
            Route("GET", "/.well-known/openid-configuration", name: "openid_configuration", cacheable: true, lane: .eventThread) { [metadata] _ in
                metadata
            },
            Route("GET", "/userinfo", name: "userinfo", errorShape: .bearer) { request in
                .json(try tokens.userInfo(accessToken: try request.bearerToken()))
            },
            // OpenID Connect Core §5.3.1: GET and POST; a POST may carry the token in its form body.
            Route("POST", "/userinfo", name: "userinfo_post", body: .form, errorShape: .bearer) { request in
                .json(try tokens.userInfo(accessToken: try request.bearerToken()))
            },
        ]
    }
}

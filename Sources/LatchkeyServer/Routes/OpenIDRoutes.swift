import Foundation
import LatchkeyCore
import LatchkeyHTTP

/// Authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server`,
/// the same document at `/.well-known/openid-configuration`, and `GET`/`POST /userinfo`.
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

    var routes: [Route] {
        var metadata = HTTPResponse.json(ServerMetadata(issuer: issuer, grants: grants))
        metadata.headers.set("Cache-Control", "public, max-age=3600")
        return [
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

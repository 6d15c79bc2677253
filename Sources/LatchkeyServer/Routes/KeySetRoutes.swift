import LatchkeyCore
import LatchkeyHTTP
import Foundation
import LatchkeyJOSE

/// `GET /.well-known/jwks.json`: the package keys that verify the server's tokens, so a
/// resource server can check an access token without calling back.
struct KeySetRoutes {
    let keyRing: SigningKeyRing
    let clock: any WallClock

    var routes: [Route] {
        [
            // On the event thread: filtering the keys and, after a change, encoding them once
            // are memory-only and short.
            Route("GET", "/.well-known/jwks.json", name: "jwks", cacheable: true, lane: .eventThread) { _ in
                let body = try keyRing.publishedKeyDocument(now: clock.now())
                return HTTPResponse(status: 200, headers: HTTPHeaders([
                    ("Content-Type", "application/jwk-set+json"),
                    // Short enough that a rotated-in key is seen long before it signs
                    // tokens that outlive the retired one.
                    ("Cache-Control", "public, max-age=300"),
                ]), body: body)
            },
        ]
    }
}

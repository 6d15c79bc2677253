import Foundation
import LatchkeyJOSE
import Testing

@Suite struct JWTClaimsTests {
    let issuer = "https://auth.example"
    let audience = "com.example.app"
    let claims = JWTClaims(
        iss: "https://auth.example", sub: "alice", aud: .single("com.example.app"), exp: 1_000_600,
        nbf: 1_000_000, iat: 1_000_000)

    func code(_ claims: JWTClaims, at seconds: Double, issuer: String? = nil, audience: String? = nil)
        -> JOSEError.Code?
    {
        joseErrorCode {
            try claims.validate(
                now: Date(timeIntervalSince1970: seconds), issuer: issuer ?? self.issuer,
                audience: audience ?? self.audience, leeway: 30)
        }
    }

    @Test("Valid inside the window, and within the leeway on both edges")
    func validWindow() {
        #expect(code(claims, at: 1_000_300) == nil)
        #expect(code(claims, at: 1_000_630) == nil)
        #expect(code(claims, at: 999_970) == nil)
    }

    @Test("Expired once exp plus the leeway has passed")
    func expired() {
        #expect(code(claims, at: 1_000_631) == .expired)
    }

    @Test("Not yet valid before nbf minus the leeway")
    func notYetValid() {
        var early = claims
        early.iat = nil
        #expect(code(early, at: 999_969) == .notYetValid)
    }

    @Test("Issued in the future is rejected beyond the leeway")
    func issuedInFuture() {
        var future = claims
        future.nbf = nil
        #expect(code(future, at: 999_969) == .issuedInFuture)
    }

    @Test("Wrong or missing issuer and audience are rejected; exp is required")
    func issuerAudience() {
        #expect(code(claims, at: 1_000_300, issuer: "https://evil.example") == .invalidIssuer)
        #expect(code(claims, at: 1_000_300, audience: "com.other.app") == .invalidAudience)
        var noAudience = claims
        noAudience.aud = nil
        #expect(code(noAudience, at: 1_000_300) == .invalidAudience)
        var noExpiry = claims
        noExpiry.exp = nil
        #expect(code(noExpiry, at: 1_000_300) == .missingClaim)
    }

    @Test("aud may be a string or an array, and round-trips in the form it came in")
    func audienceForms() throws {
        let array = try JWTClaims.decode(
            from: Data(#"{"iss":"https://auth.example","aud":["x","com.example.app"],"exp":1000600}"#.utf8))
        #expect(array.aud == .multiple(["x", "com.example.app"]))
        #expect(code(array, at: 1_000_000) == nil)
        let single = try JWTClaims.decode(from: Data(#"{"aud":"com.example.app"}"#.utf8))
        #expect(single.aud == .single("com.example.app"))
        #expect(String(decoding: try JSONEncoder().encode(single), as: UTF8.self) == #"{"aud":"com.example.app"}"#)
    }

    @Test("Claims of the wrong type are malformed")
    func wrongTypes() {
        #expect(joseErrorCode { _ = try JWTClaims.decode(from: Data(#"{"exp":"tomorrow"}"#.utf8)) } == .malformed)
        #expect(joseErrorCode { _ = try JWTClaims.decode(from: Data(#"{"aud":7}"#.utf8)) } == .malformed)
    }
}

import Foundation
@testable import LatchkeyCore
@testable import LatchkeyHTTP
import LatchkeyServer
import Testing

/// RFC 6749 §4.1.2.1 and §5.2: `error` and `error_description` hold only %x20-21 / %x23-5B /
/// %x5D-7E, however the request was written — in the token endpoint's JSON body and in the
/// authorization endpoint's error redirect.
@Suite struct OAuthErrorCharacterTests {
    /// Whether every byte of `text` is one RFC 6749 allows in `error` and `error_description`.
    static func allowed(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    /// Repeated parameters whose names cannot be quoted as they are: not ASCII, a quote and a
    /// backslash.
    static let names = ["paramètre", "名前", "a\"b\\c"]

    @Test("a repeated parameter whose name is not ASCII gets a token error in the allowed characters", arguments: names)
    func tokenEndpoint(name: String) throws {
        let harness = try OAuthFlowTests.Harness()
        let response = harness.post("/oauth/token", [
            ("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_id", "ios-app"), (name, "1"), (name, "2"),
        ])
        #expect(response.status == 400)
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
        #expect(body["error"] == "invalid_request")
        let description = try #require(body["error_description"])
        #expect(Self.allowed(description), "\(description)")
        #expect(description.hasPrefix("The parameter '") && description.hasSuffix("' is repeated."))
    }

    @Test("a repeated parameter whose name is not ASCII gets an error redirect in the allowed characters", arguments: names)
    func authorizationEndpoint(name: String) throws {
        let harness = try OAuthFlowTests.Harness()
        let response = harness.get("/oauth/authorize", OAuthFlowTests.authorizationQuery(extra: [(name, "1"), (name, "2")]))
        let parameters = try redirectParameters(response)
        #expect(parameters["error"] == "invalid_request")
        #expect(parameters["state"] == "af0ifjsldkj")
        let description = try #require(parameters["error_description"])
        #expect(Self.allowed(description), "\(description)")
        #expect(description.hasSuffix("' is repeated."))
    }

    @Test("the sanitizer keeps allowed text as it is and replaces only what the RFC leaves out")
    func sanitizer() {
        #expect(OAuthErrorText.sanitized("The parameter 'scope' is repeated.") == "The parameter 'scope' is repeated.")
        #expect(OAuthErrorText.sanitized("The parameter '\u{2026}' is repeated.") == "The parameter '...' is repeated.")
        #expect(OAuthErrorText.sanitized("a\"b\\c\u{7F}\té") == "a'b/c???")
        for byte in UInt8(0)...UInt8(127) {
            let text = String(decoding: [byte], as: UTF8.self)
            #expect(Self.allowed(OAuthErrorText.sanitized(text)))
        }
    }
}

import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import LatchkeyTestSupport
import Testing

/// ASVS V7.3.1 for the browser session of the sign-in pages: it ends after
/// `LATCHKEY_BROWSER_SESSION_IDLE_TTL` unused (default an hour), and 12 hours after the
/// sign-in however often it is used.
@Suite struct BrowserSessionIdleTests {
    /// Whether the browser with `cookies` gets a code at once (still signed in) rather than the sign-in form.
    private static func signedIn(_ harness: OAuthFlowTests.Harness, _ cookies: [String: String]) throws -> Bool {
        let response = harness.get(
            "/oauth/authorize", OAuthFlowTests.authorizationQuery(redirect: OAuthFlowTests.universalLink), cookies: cookies)
        if response.status == 303 { return try redirectParameters(response)["code"] != nil }
        #expect(response.status == 200 && hiddenFields(response).contains { $0.0 == "step" && $0.1 == "sign_in" })
        return false
    }

    @Test("a browser session unused for an hour asks for the password again; each use starts the hour again")
    func idleTimeout() throws {
        let harness = try OAuthFlowTests.Harness()
        let cookies = harness.signedInBrowser()
        for _ in 0..<3 {
            harness.clock.advance(by: 3599)
            #expect(try Self.signedIn(harness, cookies))
        }
        harness.clock.advance(by: 3600)
        #expect(try !Self.signedIn(harness, cookies))
    }

    @Test("used every 50 minutes, a browser session still ends 12 hours after the sign-in")
    func absoluteLifetime() throws {
        let harness = try OAuthFlowTests.Harness(["LATCHKEY_BROWSER_SESSION_IDLE_TTL": "3600"])
        let cookies = harness.signedInBrowser()
        var elapsed: TimeInterval = 0
        while elapsed + 3000 < 12 * 3600 {
            harness.clock.advance(by: 3000)
            elapsed += 3000
            #expect(try Self.signedIn(harness, cookies))
        }
        harness.clock.advance(by: 12 * 3600 - elapsed)
        #expect(try !Self.signedIn(harness, cookies))
    }

    @Test("LATCHKEY_BROWSER_SESSION_IDLE_TTL sets the inactivity timeout, from 5 minutes to 12 hours")
    func setting() throws {
        let harness = try OAuthFlowTests.Harness(["LATCHKEY_BROWSER_SESSION_IDLE_TTL": "300"])
        let cookies = harness.signedInBrowser()
        harness.clock.advance(by: 299)
        #expect(try Self.signedIn(harness, cookies))
        harness.clock.advance(by: 300)
        #expect(try !Self.signedIn(harness, cookies))
        for value in ["299", "43201", "hour"] {
            let error = #expect(throws: LatchkeyError.self) {
                try Configuration.load(environment: ["LATCHKEY_BROWSER_SESSION_IDLE_TTL": value])
            }
            #expect(error?.message.hasPrefix("LATCHKEY_BROWSER_SESSION_IDLE_TTL must be") == true)
        }
    }
}

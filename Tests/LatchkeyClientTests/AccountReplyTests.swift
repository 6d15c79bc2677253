import Foundation
@testable import LatchkeyClient
import Testing

/// How the SDK reads the account routes' replies: the decisions that do not need a server.
@Suite struct AccountReplyTests {
    static func reply(_ status: Int, _ json: String = "", wwwAuthenticate: String? = nil) -> HTTPReply {
        HTTPReply(status: status, body: Data(json.utf8), retryAfter: nil, wwwAuthenticate: wwwAuthenticate, receivedAt: Date())
    }

    @Test("only a 401 with a Bearer challenge refuses the access token itself", arguments: [
        (401, "Bearer", true), (401, #"bearer error="invalid_token""#, true), (401, "Bearer realm=\"x\"", true),
        (401, nil, false), (401, "Basic realm=\"x\"", false), (401, "Bearerish", false), (403, "Bearer", false),
    ] as [(Int, String?, Bool)])
    func bearerChallenge(status: Int, challenge: String?, refuses: Bool) {
        #expect(Self.reply(status, wwwAuthenticate: challenge).refusesAccessToken == refuses)
    }

    @Test("an account reply is read from Directus's data object; one without id, email or status is unexpected")
    func account() throws {
        let account = try UserAccount(reply: Self.reply(
            200, #"{"data":{"id":"u1","email":"jane@example.com","email_verified":true,"status":"active","language":null}}"#))
        #expect(account == UserAccount(id: "u1", email: "jane@example.com", emailVerified: true, status: "active", language: nil))
        for body in [#"{"data":{"id":"u1","status":"active"}}"#, #"{"data":[]}"#, "[]", ""] {
            #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_account"], status: 200)) {
                try UserAccount(reply: Self.reply(200, body))
            }
        }
    }

    @Test("a device list keeps the server's order and reads both date forms; an entry without a date is unexpected")
    func devices() throws {
        let devices = try SignedInDevice.list(in: Self.reply(200, #"""
            {"data":[{"id":"a","client_id":null,"signed_in_at":"2026-05-01T10:00:00Z","last_used_at":"2026-05-01T11:00:00.250Z",
            "ip":"203.0.113.0","user_agent":"curl","current":true},
            {"id":"b","client_id":"ios-app","signed_in_at":"2026-04-01T10:00:00Z","last_used_at":"2026-04-02T10:00:00Z",
            "ip":null,"user_agent":null,"current":false}]}
            """#))
        #expect(devices.map(\.id) == ["a", "b"])
        #expect(devices[0].isCurrent && devices[0].clientID == nil && devices[0].userAgent == "curl")
        #expect(devices[0].lastUsedAt.timeIntervalSince(devices[0].signedInAt) == 3600.25)
        #expect(devices[1].clientID == "ios-app" && devices[1].ip == nil && !devices[1].isCurrent)
        #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_device_list"], status: 200)) {
            try SignedInDevice.list(in: Self.reply(200, #"{"data":[{"id":"a","signed_in_at":"yesterday","last_used_at":"2026-04-02T10:00:00Z"}]}"#))
        }
    }
}

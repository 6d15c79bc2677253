import Foundation
@testable import LatchkeyClient
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// What the SDK decides about passkeys without a server: the options it accepts, the JSON it
/// sends (checked by the server's own verifier), the errors it maps.
@Suite struct PasskeyDecisionTests {
    static let app = try! PasskeyRelyingParty("example.com")
    static let challenge = Data((0..<32).map { UInt8($0) })
    static let userID = Data(repeating: 7, count: 32)

    static func b64(_ bytes: Data) -> String { LatchkeyClient.Base64URL.encode(bytes) }

    /// The server's registration options, as the contract spells them, with `change` applied.
    static func creationOptions(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var options: [String: Any] = [
            "rp": ["id": "example.com", "name": "Example"],
            "user": ["id": b64(userID), "name": "jane@example.com", "displayName": "jane@example.com"],
            "challenge": b64(challenge),
            "pubKeyCredParams": [["type": "public-key", "alg": -8], ["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]],
            "timeout": 300000,
            "excludeCredentials": [["type": "public-key", "id": b64(Data([1, 2, 3])), "transports": ["internal"]]],
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
        ]
        change(&options)
        return options
    }

    static func registration(_ options: [String: Any], for party: PasskeyRelyingParty = app) throws -> PasskeyRegistrationRequest {
        try PasskeyRegistrationRequest(options: PasskeyOptionsReader(options: options, status: 200), expected: party)
    }

    static func assertion(_ options: [String: Any]) throws -> PasskeyAssertionRequest {
        try PasskeyAssertionRequest(options: PasskeyOptionsReader(options: options, status: 200), expected: app)
    }

    @Test("the relying party an app configures is a lowercase domain; anything else is refused up front", arguments: [
        ("example.com", "example.com"), ("Login.Example.COM", "login.example.com"), ("xn--bcher-kva.example", "xn--bcher-kva.example"),
    ])
    func relyingParty(given: String, kept: String) throws {
        #expect(try PasskeyRelyingParty(given).identifier == kept)
    }

    @Test("a relying party with a scheme, port, path, one label or a bad label is invalid_configuration", arguments: [
        "https://example.com", "example.com:443", "example.com/x", "localhost", "", "-a.example.com", "a..example.com",
        "exa mple.com", "bücher.example", String(repeating: "a", count: 64) + ".com",
    ])
    func badRelyingParty(given: String) {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_relying_party"])) { try PasskeyRelyingParty(given) }
    }

    @Test("the contract's registration options give the platform what it needs")
    func registrationOptions() throws {
        let request = try Self.registration(Self.creationOptions())
        #expect(request.relyingParty == Self.app)
        #expect(request.challenge == Self.challenge)
        #expect(request.userID == Self.userID)
        #expect(request.userName == "jane@example.com" && request.displayName == "jane@example.com")
        #expect(request.excludedCredentialIDs == [Data([1, 2, 3])])
        #expect(request.userVerification == .required)
        // The relying party is compared without regard to case; a missing display name is the user name.
        let upper = try Self.registration(Self.creationOptions {
            $0["rp"] = ["id": "EXAMPLE.com"]
            $0["user"] = ["id": Self.b64(Self.userID), "name": "jane@example.com"]
            $0["excludeCredentials"] = nil
        })
        #expect(upper.displayName == "jane@example.com" && upper.excludedCredentialIDs.isEmpty)
    }

    @Test("options for another relying party are refused before any sheet: relying_party_mismatch")
    func registrationForAnotherParty() {
        for rp in ["evil.example", "login.example.com", "example.com.evil.example"] {
            #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["relying_party_mismatch"], status: 200)) {
                try Self.registration(Self.creationOptions { $0["rp"] = ["id": rp, "name": "Example"] })
            }
            #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["relying_party_mismatch"], status: 200)) {
                try Self.assertion(["challenge": Self.b64(Self.challenge), "rpId": rp])
            }
        }
    }

    @Test("a server that takes no ES256 key, or asks for no discoverable credential, is not set up for passkeys")
    func serverNotSetUp() {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["es256_not_offered"], status: 200)) {
            try Self.registration(Self.creationOptions { $0["pubKeyCredParams"] = [["type": "public-key", "alg": -8]] })
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["discoverable_credential_not_required"], status: 200)) {
            try Self.registration(Self.creationOptions { $0["authenticatorSelection"] = ["residentKey": "preferred"] })
        }
    }

    /// One malformed member at a time, and the member the error names.
    static let malformations: [(member: String, change: @Sendable (inout [String: Any]) -> Void)] = [
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = nil }),
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = PasskeyDecisionTests.b64(Data(count: 15)) }),
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = PasskeyDecisionTests.b64(Data(count: 65)) }),
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = PasskeyDecisionTests.b64(PasskeyDecisionTests.challenge) + "=" }),
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = String(PasskeyDecisionTests.b64(PasskeyDecisionTests.challenge).dropLast()) + "B" }),
        ("challenge", { (o: inout [String: Any]) in o["challenge"] = "AAAA+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }),
        ("rp", { (o: inout [String: Any]) in o["rp"] = "example.com" }),
        ("rp_id", { (o: inout [String: Any]) in o["rp"] = ["name": "Example"] }),
        ("user", { (o: inout [String: Any]) in o["user"] = nil }),
        ("user.id", { (o: inout [String: Any]) in o["user"] = ["id": "", "name": "jane@example.com"] }),
        ("user.id", { (o: inout [String: Any]) in o["user"] = ["id": PasskeyDecisionTests.b64(Data(count: 65)), "name": "jane@example.com"] }),
        ("user.name", { (o: inout [String: Any]) in o["user"] = ["id": PasskeyDecisionTests.b64(PasskeyDecisionTests.userID), "name": ""] }),
        ("user.name", { (o: inout [String: Any]) in o["user"] = ["id": PasskeyDecisionTests.b64(PasskeyDecisionTests.userID), "name": "jane\u{0}@example.com"] }),
        ("user.displayName", { (o: inout [String: Any]) in o["user"] = ["id": PasskeyDecisionTests.b64(PasskeyDecisionTests.userID), "name": "j@example.com", "displayName": 3] }),
        ("pubKeyCredParams", { (o: inout [String: Any]) in o["pubKeyCredParams"] = nil }),
        ("excludeCredentials", { (o: inout [String: Any]) in o["excludeCredentials"] = [["type": "public-key", "id": PasskeyDecisionTests.b64(Data(count: 1024))]] }),
        ("excludeCredentials", { (o: inout [String: Any]) in o["excludeCredentials"] = [["id": "AQID"]] }),
        ("excludeCredentials", { (o: inout [String: Any]) in o["excludeCredentials"] = Array(repeating: ["type": "public-key", "id": "AQID"], count: 257) }),
    ]

    @Test("each malformed member is unexpected_response naming the member", arguments: malformations.indices)
    func malformedRegistrationOptions(index: Int) {
        let (member, change) = Self.malformations[index]
        #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", member], status: 200)) {
            try Self.registration(Self.creationOptions(change))
        }
    }

    @Test("credentials of another type than public-key are skipped, as WebAuthn says; unknown userVerification is preferred")
    func lenientWhereWebAuthnIs() throws {
        let request = try Self.registration(Self.creationOptions {
            $0["excludeCredentials"] = [["type": "future-key", "id": "!!"], ["type": "public-key", "id": "AQID"]]
            $0["authenticatorSelection"] = ["residentKey": "required", "userVerification": "sometimes"]
        })
        #expect(request.excludedCredentialIDs == [Data([1, 2, 3])])
        #expect(request.userVerification == .preferred)
    }

    @Test("the contract's authentication options; a missing rpId or challenge is malformed")
    func assertionOptions() throws {
        let request = try Self.assertion([
            "challenge": Self.b64(Self.challenge), "rpId": "example.com", "timeout": 300000, "userVerification": "required",
            "allowCredentials": [],
        ])
        #expect(request == PasskeyAssertionRequest(relyingParty: Self.app, challenge: Self.challenge))
        #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", "rp_id"], status: 200)) {
            try Self.assertion(["challenge": Self.b64(Self.challenge)])
        }
        #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", "challenge"], status: 200)) {
            try Self.assertion(["rpId": "example.com"])
        }
    }

    @Test("options come from the reply's data.public_key; any other reply is malformed")
    func optionsReply() throws {
        let reply = HTTPReply(
            status: 200, body: Data(#"{"data":{"public_key":{"challenge":"\#(Self.b64(Self.challenge))","rpId":"example.com"}}}"#.utf8),
            retryAfter: nil, wwwAuthenticate: nil, receivedAt: Date())
        #expect(try PasskeyAssertionRequest(options: PasskeyOptionsReader(reply: reply), expected: Self.app).challenge == Self.challenge)
        for body in [#"{"data":{}}"#, #"{"public_key":{}}"#, "[]", ""] {
            let bad = HTTPReply(status: 200, body: Data(body.utf8), retryAfter: nil, wwwAuthenticate: nil, receivedAt: Date())
            #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey_options", "public_key"], status: 200)) {
                try PasskeyOptionsReader(reply: bad)
            }
        }
    }

    /// The server's verifier, as the routes run it, over what the SDK would send.
    static let server = RelyingParty(id: "example.com", origins: ["https://example.com"])

    @Test("the registration JSON the SDK sends passes the server's own §7.1 verification, for P-256 and Ed25519")
    func registrationResponsePassesTheServer() throws {
        for algorithm in [SoftwareAuthenticator.Algorithm.es256, .edDSA] {
            let authenticator = SoftwareAuthenticator(algorithm: algorithm, userHandle: Self.userID)
            let made = authenticator.register(SoftwareAuthenticator.Ceremony(challenge: Self.challenge))
            let registration = PasskeyRegistration(
                credentialID: made.credentialID, clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject,
                attachment: .platform)
            let json = try JSONSerialization.data(withJSONObject: try registration.responseJSON())
            let decoded = try JSONDecoder().decode(RegistrationResponse.self, from: json)
            #expect(decoded.transports == ["hybrid", "internal"])
            let record = try RegistrationCeremony.verify(decoded, challenge: Self.challenge, relyingParty: Self.server)
            #expect(record.id == authenticator.credentialID)
        }
    }

    @Test("the assertion JSON the SDK sends passes the server's own §7.2 verification, as a discoverable sign-in")
    func assertionResponsePassesTheServer() throws {
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: Self.userID)
        let record = try RegistrationCeremony.verify(
            authenticator.register(SoftwareAuthenticator.Ceremony(challenge: Self.challenge)), challenge: Self.challenge,
            relyingParty: Self.server)
        let signInChallenge = Data(repeating: 9, count: 32)
        let answer = authenticator.authenticate(SoftwareAuthenticator.Ceremony(challenge: signInChallenge))
        let assertion = PasskeyAssertion(
            credentialID: answer.credentialID, clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
            signature: answer.signature, userHandle: try #require(answer.userHandle), attachment: nil)
        let object = try assertion.responseJSON()
        #expect(object["authenticatorAttachment"] == nil)
        let decoded = try JSONDecoder().decode(AuthenticationResponse.self, from: try JSONSerialization.data(withJSONObject: object))
        _ = try AuthenticationCeremony.verify(
            decoded, challenge: signInChallenge, relyingParty: Self.server, credential: record, userHandle: Self.userID,
            identification: .discoverable)
    }

    @Test("the platform's attachment: 0 is this device, 1 another; a value a later system adds is not guessed")
    func attachment() {
        #expect(PasskeyAttachment(platformRawValue: 0) == .platform)
        #expect(PasskeyAttachment(platformRawValue: 1) == .crossPlatform)
        #expect(PasskeyAttachment(platformRawValue: 2) == nil)
        #expect(PasskeyAttachment.crossPlatform.transports == ["hybrid"])
    }

    @Test("a platform answer the server would refuse is refused before it is sent")
    func platformAnswerChecked() {
        let good = PasskeyAssertion(
            credentialID: Data([1]), clientDataJSON: Data("{}".utf8), authenticatorData: Data(count: 37), signature: Data([1]),
            userHandle: Self.userID, attachment: .platform)
        #expect(throws: Never.self) { try good.responseJSON() }
        let noHandle = PasskeyAssertion(
            credentialID: Data([1]), clientDataJSON: Data("{}".utf8), authenticatorData: Data(count: 37), signature: Data([1]),
            userHandle: Data(), attachment: .platform)
        #expect(throws: LatchkeyClientError(.passkeyRefused, reasons: ["user_handle_missing"])) { try noHandle.responseJSON() }
        let longID = PasskeyRegistration(
            credentialID: Data(count: 1024), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xA0]), attachment: nil)
        #expect(throws: LatchkeyClientError(.passkeyRefused, reasons: ["malformed_platform_response"])) { try longID.responseJSON() }
    }

    @Test("the passkey routes' errors map to stable codes, with the server's reason for a refused passkey", arguments: [
        (400, #"{"errors":[{"message":"x","extensions":{"code":"INVALID_PASSKEY","reason":"origin_not_allowed"}}]}"#,
         LatchkeyClientError.Code.passkeyRefused, ["origin_not_allowed"]),
        (400, #"{"errors":[{"message":"x","extensions":{"code":"INVALID_PASSKEY","reason":"Not A Code!"}}]}"#, .passkeyRefused, []),
        (409, #"{"errors":[{"message":"x","extensions":{"code":"PASSKEY_EXISTS"}}]}"#, .passkeyExists, []),
        (409, #"{"errors":[{"message":"x","extensions":{"code":"LAST_SIGN_IN_METHOD"}}]}"#, .lastSignInMethod, []),
        (403, #"{"errors":[{"message":"x","extensions":{"code":"REAUTHENTICATION_REQUIRED"}}]}"#, .reauthenticationRequired, []),
        (409, #"{"error":{"code":"last_sign_in_method","message":"x"}}"#, .lastSignInMethod, []),
    ] as [(Int, String, LatchkeyClientError.Code, [String])])
    func errorMapping(status: Int, body: String, code: LatchkeyClientError.Code, reasons: [String]) {
        let error = LatchkeyClientError.from(status: status, body: Data(body.utf8))
        #expect(error.code == code)
        #expect(error.reasons == reasons)
    }

    @Test("the system's passkey errors: cancel is passkey_cancelled, an excluded credential passkey_exists, the rest refused", arguments: [
        (1001, LatchkeyClientError(.passkeyCancelled)),
        (1006, LatchkeyClientError(.passkeyExists, reasons: ["matched_excluded_credential"])),
        (1004, LatchkeyClientError(.passkeyRefused, reasons: ["platform_failed"])),
        (1005, LatchkeyClientError(.passkeyRefused, reasons: ["not_interactive"])),
        (1010, LatchkeyClientError(.passkeyRefused, reasons: ["device_not_configured"])),
        (1000, LatchkeyClientError(.passkeyRefused, reasons: ["platform_unknown"])),
    ])
    func platformErrors(code: Int, error: LatchkeyClientError) {
        #expect(PasskeyAuthorizationFlow.error(authorizationErrorCode: code) == error)
    }

    @Test("a list entry needs its id, name, creation date and synced flag; last use may be null")
    func passkeyList() throws {
        let reply = HTTPReply(status: 200, body: Data(#"""
            {"data":[{"id":"AQID","name":"iPhone","created_at":"2026-05-01T10:00:00Z","last_used_at":null,"synced":true,"transports":["internal","hybrid"]},
            {"id":"BAUG","name":"Key","created_at":"2026-04-01T10:00:00.5Z","last_used_at":"2026-04-02T10:00:00Z","synced":false,"transports":[]}]}
            """#.utf8), retryAfter: nil, wwwAuthenticate: nil, receivedAt: Date())
        let list = try Passkey.list(in: reply)
        #expect(list.map(\.id) == ["AQID", "BAUG"])
        #expect(list[0].isSynced && list[0].lastUsedAt == nil && list[0].transports == ["internal", "hybrid"])
        #expect(!list[1].isSynced && list[1].lastUsedAt == Date(timeIntervalSince1970: 1_775_124_000))
        for entry in [
            #"{"name":"x","created_at":"2026-05-01T10:00:00Z","synced":true}"#,
            #"{"id":"A+B","name":"x","created_at":"2026-05-01T10:00:00Z","synced":true}"#,
            #"{"id":"AQID","name":"x","created_at":"yesterday","synced":true}"#,
            #"{"id":"AQID","name":"x","created_at":"2026-05-01T10:00:00Z"}"#,
            #"{"id":"AQID","name":"x","created_at":"2026-05-01T10:00:00Z","synced":true,"last_used_at":5}"#,
        ] {
            let bad = HTTPReply(status: 200, body: Data(#"{"data":[\#(entry)]}"#.utf8), retryAfter: nil, wwwAuthenticate: nil, receivedAt: Date())
            #expect(throws: LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey"], status: 200)) { try Passkey.list(in: bad) }
        }
    }

    @Test("a name is kept trimmed, 1 to 64 scalars, with no control character", arguments: [
        ("  Work laptop ", "Work laptop"), (String(repeating: "é", count: 64), String(repeating: "é", count: 64)),
        ("", nil), ("   ", nil), (String(repeating: "a", count: 65), nil), ("tab\there", nil), ("🇵🇹" + String(repeating: "a", count: 63), nil),
    ] as [(String, String?)])
    func names(given: String, kept: String?) {
        #expect(Passkey.validName(given) == kept)
    }

    @Test("base64url decoding is strict: one text per byte string")
    func strictBase64URL() {
        #expect(LatchkeyClient.Base64URL.decode("AQID") == Data([1, 2, 3]))
        #expect(LatchkeyClient.Base64URL.decode("AQ") == Data([1]))
        #expect(LatchkeyClient.Base64URL.decode("") == Data())
        for text in ["AQ==", "AR", "A", "AQ/D", "AQ+D", "AQ D", "AQI\n"] {
            #expect(LatchkeyClient.Base64URL.decode(text) == nil, "\(text)")
        }
    }
}

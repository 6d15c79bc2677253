import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The passkey routes through the router of a whole application whose public URL is the
/// software authenticator's relying party (`https://example.com`), on a clock the tests move:
/// the shapes of the contract the SDK follows, and what each refusal looks like.
@Suite struct PasskeyRoutesTests {
    private static let password = "correct horse battery staple"
    private static let email = "person@example.com"

    private func harness() throws -> AccountRoutesHarness {
        try AccountRoutesHarness(["LATCHKEY_PUBLIC_URL": "https://example.com", "LATCHKEY_PRODUCT_NAME": "Example"])
    }

    /// `response`'s `data.public_key`.
    private func publicKey(_ harness: AccountRoutesHarness, _ response: HTTPResponse) throws -> [String: Any] {
        try #require((try harness.json(response)["data"] as? [String: Any])?["public_key"] as? [String: Any])
    }

    /// Registers a new credential through the routes; the authenticator and the answer.
    private func register(_ harness: AccountRoutesHarness, token: String, name: String? = nil, origin: String = "https://example.com")
        throws -> (SoftwareAuthenticator, HTTPResponse)
    {
        let options = harness.call("POST", "/auth/passkeys/registration/options", token: token)
        #expect(options.status == 200)
        let key = try publicKey(harness, options)
        let user = try #require(key["user"] as? [String: Any])
        let handle = try #require(Base64URL.decode(user["id"] as? String ?? ""))
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: handle)
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: try #require(Base64URL.decode(key["challenge"] as? String ?? "")))
        ceremony.origin = origin
        let credential = String(decoding: authenticator.register(ceremony).json, as: UTF8.self)
        let body = name.map { #"{"credential":\#(credential),"name":"\#($0)"}"# } ?? #"{"credential":\#(credential)}"#
        return (authenticator, harness.call("POST", "/auth/passkeys/registration/verify", token: token, body: body))
    }

    /// Signs in with `authenticator` through the routes.
    private func signIn(_ harness: AccountRoutesHarness, _ authenticator: SoftwareAuthenticator, change: (inout SoftwareAuthenticator.Ceremony) -> Void = { _ in })
        throws -> HTTPResponse
    {
        let options = harness.call("POST", "/auth/passkeys/authentication/options")
        #expect(options.status == 200)
        let challenge = try publicKey(harness, options)["challenge"] as? String ?? ""
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: try #require(Base64URL.decode(challenge)))
        change(&ceremony)
        let credential = String(decoding: authenticator.authenticate(ceremony).json, as: UTF8.self)
        return harness.call("POST", "/auth/passkeys/authentication/verify", body: #"{"credential":\#(credential)}"#)
    }

    @Test("options in the W3C JSON forms; a registered passkey signs in as /auth/login answers, amr hwk and user")
    func wholeCeremony() throws {
        let harness = try harness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let options = harness.call("POST", "/auth/passkeys/registration/options", token: login.access)
        let key = try publicKey(harness, options)
        #expect((key["rp"] as? [String: String]) == ["id": "example.com", "name": "Example"])
        let user = try #require(key["user"] as? [String: String])
        #expect(Base64URL.decode(user["id"] ?? "")?.count == 32)
        #expect(user["name"] == Self.email && user["displayName"] == Self.email)
        #expect(Base64URL.decode(key["challenge"] as? String ?? "")?.count == 32)
        #expect((key["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-8, -7, -257])
        #expect(key["timeout"] as? Int == 300_000)
        #expect(key["attestation"] as? String == "none")
        #expect((key["excludeCredentials"] as? [Any])?.isEmpty == true)
        let selection = try #require(key["authenticatorSelection"] as? [String: Any])
        #expect(selection["residentKey"] as? String == "required" && selection["userVerification"] as? String == "required")

        let (authenticator, registered) = try register(harness, token: login.access, name: "Phone")
        #expect(registered.status == 201)
        let passkey = try #require(try harness.json(registered)["data"] as? [String: Any])
        #expect(passkey["id"] as? String == Base64URL.encode(authenticator.credentialID))
        #expect(passkey["name"] as? String == "Phone" && passkey["synced"] as? Bool == true)
        #expect(passkey["last_used_at"] is NSNull)
        #expect(passkey["transports"] as? [String] == ["internal", "hybrid"])
        let again = try publicKey(harness, harness.call("POST", "/auth/passkeys/registration/options", token: login.access))
        #expect((again["excludeCredentials"] as? [[String: Any]])?.first?["id"] as? String == Base64URL.encode(authenticator.credentialID))
        #expect(user["id"] == (again["user"] as? [String: String])?["id"], "the user handle is stable")

        let requestOptions = try publicKey(harness, harness.call("POST", "/auth/passkeys/authentication/options", body: "{}"))
        #expect(requestOptions["rpId"] as? String == "example.com" && requestOptions["userVerification"] as? String == "required")
        #expect((requestOptions["allowCredentials"] as? [Any])?.isEmpty == true)
        let signedIn = try signIn(harness, authenticator)
        #expect(signedIn.status == 200)
        let data = try #require(try harness.json(signedIn)["data"] as? [String: Any])
        #expect(data["refresh_token"] is String && data["expires"] is Int)
        let access = try #require(data["access_token"] as? String)
        #expect(try harness.app.tokens.verifyAccessToken(Redacted(access))?.assurance.methods == [.hardwareKey, .userVerification])
        let listed = try #require(try harness.json(harness.call("GET", "/users/me/passkeys", token: access))["data"] as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["last_used_at"] is String)
    }

    @Test("every failed sign-in is the wrong password's 401 body")
    func failuresLikeAWrongPassword() throws {
        let harness = try harness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let (authenticator, _) = try register(harness, token: login.access)
        let wrongPassword = harness.call("POST", "/auth/login", body: #"{"email":"\#(Self.email)","password":"wrong wrong wrong"}"#)
        for change: (inout SoftwareAuthenticator.Ceremony) -> Void in [
            { $0.origin = "https://evil.example" }, { $0.rpID = "evil.example" }, { $0.flags.remove(.userVerified) },
            { $0.flags.remove(.userPresent) }, { $0.challenge = SecureRandom.bytes(32) },
        ] {
            let refused = try signIn(harness, authenticator, change: change)
            #expect(refused.status == 401)
            #expect(refused.body == wrongPassword.body)
        }
        let stranger = try signIn(harness, SoftwareAuthenticator(algorithm: .edDSA))
        #expect(stranger.status == 401 && stranger.body == wrongPassword.body)
        let garbage = harness.call("POST", "/auth/passkeys/authentication/verify", body: #"{"credential":{"id":"!!"}}"#)
        #expect(garbage.status == 401 && garbage.body == wrongPassword.body)
        #expect(harness.call("POST", "/auth/passkeys/authentication/verify", body: "{}").status == 400)
    }

    @Test("a failed registration check is 400 INVALID_PASSKEY with its reason; a credential twice is 409 PASSKEY_EXISTS")
    func registrationRefusals() throws {
        let harness = try harness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let (_, wrongOrigin) = try register(harness, token: login.access, origin: "https://evil.example")
        #expect(wrongOrigin.status == 400)
        #expect(try harness.directusCode(wrongOrigin) == "INVALID_PASSKEY")
        let errors = try #require(try harness.json(wrongOrigin)["errors"] as? [[String: Any]])
        #expect((errors.first?["extensions"] as? [String: Any])?["reason"] as? String == "origin_not_allowed")

        let (authenticator, first) = try register(harness, token: login.access)
        #expect(first.status == 201)
        let options = try publicKey(harness, harness.call("POST", "/auth/passkeys/registration/options", token: login.access))
        let replay = authenticator.register(.init(challenge: try #require(Base64URL.decode(options["challenge"] as? String ?? ""))))
        let twice = harness.call(
            "POST", "/auth/passkeys/registration/verify", token: login.access,
            body: #"{"credential":\#(String(decoding: replay.json, as: UTF8.self))}"#)
        #expect(twice.status == 409)
        #expect(try harness.directusCode(twice) == "PASSKEY_EXISTS")
        #expect(harness.call("POST", "/auth/passkeys/registration/options").status == 401, "no token")
        // After five minutes the sign-in is no longer recent: the password again.
        harness.clock.advance(by: 301)
        let stale = harness.call("POST", "/auth/passkeys/registration/options", token: login.access)
        #expect(stale.status == 403)
        #expect(try harness.directusCode(stale) == "REAUTHENTICATION_REQUIRED")
        let confirmed = harness.call(
            "POST", "/auth/passkeys/registration/options", token: login.access, body: #"{"current_password":"\#(Self.password)"}"#)
        #expect(confirmed.status == 200)
    }

    @Test("rename and delete by id in the path; unknown ids 404; the last way in 409")
    func manage() throws {
        let harness = try harness()
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password))
        let login = try harness.login(Self.email, Self.password)
        let (authenticator, _) = try register(harness, token: login.access)
        let id = Base64URL.encode(authenticator.credentialID)
        let renamed = harness.call("PATCH", "/users/me/passkeys/\(id)", token: login.access, body: #"{"name":"Laptop"}"#)
        #expect(renamed.status == 200)
        #expect((try harness.json(renamed)["data"] as? [String: Any])?["name"] as? String == "Laptop")
        #expect(harness.call("PATCH", "/users/me/passkeys/\(id)", token: login.access, body: #"{"name":""}"#).status == 400)
        // A name that would reorder or break the text it is shown in (the owner's mail, a
        // settings list) is refused: a right-to-left override, an isolate, a mark, a line
        // separator, a C1 control (JSON escapes, so they reach the check).
        for name in [#"iPhone \u202Eenod"#, #"a\u2066b"#, #"a\u200Fb"#, #"a\u2028b"#, #"a\u0085b"#, #"a\u061Cb"#] {
            let refused = harness.call("PATCH", "/users/me/passkeys/\(id)", token: login.access, body: #"{"name":""# + name + #""}"#)
            #expect(refused.status == 400, "\(name)")
            #expect(try harness.directusCode(refused) == "INVALID_PAYLOAD", "\(name)")
        }
        // Joiners draw (emoji, scripts that need them) and pass.
        let joined = harness.call("PATCH", "/users/me/passkeys/\(id)", token: login.access, body: #"{"name":"Kim\u200D\u2019s \uD83D\uDC68\u200D\uD83D\uDCBB"}"#)
        #expect(joined.status == 200)
        let unknown = harness.call("PATCH", "/users/me/passkeys/AAAA", token: login.access, body: #"{"name":"x"}"#)
        #expect(unknown.status == 404)
        #expect(try harness.directusCode(unknown) == "NOT_FOUND")
        let notBase64 = harness.call("DELETE", "/users/me/passkeys/a.b", token: login.access)
        #expect(notBase64.status == 404)
        #expect(try harness.directusCode(notBase64) == "NOT_FOUND", "in the route's shape")
        #expect(harness.call("POST", "/auth/passkeys/authentication/options", body: "[null]").status == 400)
        #expect(harness.call("GET", "/users/me/passkeys/\(id)", token: login.access).status == 405)

        // An account without a password, signed in with a passkey: its one passkey stays.
        let passwordless = Account(
            id: UUID().uuidString.lowercased(), email: "nopassword@example.com", passwordHash: nil, status: .active, credentialVersion: 0,
            locale: nil, createdAt: harness.clock.now())
        try harness.app.store.createAccount(passwordless)
        let access = try harness.app.tokens.issue(
            for: SignInService.SignedIn(
                account: passwordless, assurance: Assurance(methods: [.hardwareKey, .userVerification], authTime: harness.clock.now())),
            clientID: nil, scope: FirstPartyLogin.scope, origin: LoginOrigin(clientIP: "203.0.113.7", userAgentHeader: nil)
        ).accessToken.exposed
        let (only, _) = try register(harness, token: access)
        let onlyID = Base64URL.encode(only.credentialID)
        let last = harness.call("DELETE", "/users/me/passkeys/\(onlyID)", token: access)
        #expect(last.status == 409)
        #expect(try harness.directusCode(last) == "LAST_SIGN_IN_METHOD")
        let (second, _) = try register(harness, token: access)
        #expect(harness.call("DELETE", "/users/me/passkeys/\(onlyID)", token: access).status == 204)
        #expect(try signIn(harness, only).status == 401, "a deleted passkey signs in no more")
        #expect(harness.call("DELETE", "/users/me/passkeys/\(id)", token: login.access).status == 204, "an account with a password may delete its last")
        #expect(try signIn(harness, second).status == 200)
    }

    @Test("the RP ID is the public URL's host or a domain above it; origins are under it, or an Android app's")
    func relyingPartySettings() throws {
        func load(_ extra: [String: String]) throws -> Configuration {
            try Configuration.load(environment: ["LATCHKEY_LISTEN": "127.0.0.1:0", "LATCHKEY_PUBLIC_URL": "https://login.example.com"].merging(extra) { $1 })
        }
        let derived = try load([:])
        #expect(derived.passkeyRPID == "login.example.com" && derived.passkeyOrigins == ["https://login.example.com"])
        let android = "android:apk-key-hash:" + Base64URL.encode(SHA256.hash(utf8: "certificate"))
        let wide = try load(["LATCHKEY_PASSKEY_RP_ID": "example.com", "LATCHKEY_PASSKEY_ORIGINS": "https://www.example.com, \(android)"])
        #expect(wide.passkeyOrigins == ["https://login.example.com", "https://www.example.com", android])
        for (name, value) in [
            ("LATCHKEY_PASSKEY_RP_ID", "other.com"), ("LATCHKEY_PASSKEY_RP_ID", "ample.com"),
            ("LATCHKEY_PASSKEY_ORIGINS", "https://evil.example"), ("LATCHKEY_PASSKEY_ORIGINS", "android:apk-key-hash:abc"),
        ] {
            #expect(throws: LatchkeyError.self, "\(name)=\(value)") { try load([name: value]) }
        }
    }
}

import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The device token through the SDK against the real server binary: a sign-in keeps the token
/// the server hands back, the next sends it, and the server recognises the device — with the
/// right password it gets past the account-wide cap that holds a new device.
@Suite struct DeviceTokenLoginTests {
    static let email = "dana@example.com"
    static let password = ClientSecret(LatchkeyServerProcess.goodPassword)

    @Test("a first login keeps the device token, sign-out leaves it, the next login sends it: past the cap, where a new device gets 429")
    func recognisedDevice() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser(Self.email)
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url.appendingPathComponent("state"))
        let login = FirstPartyLogin(baseURL: server.baseURL, deviceTokens: store)
        let session = AuthSession(store: store, refresher: .firstParty(login))

        try await session.signIn(try await login.signIn(email: Self.email, password: Self.password))
        let kept = try #require(try store.deviceToken(for: server.baseURL))
        #expect(kept.value.exposed.count == 43)
        try await session.signOut()
        #expect(try store.load() == nil)
        #expect(try store.deviceToken(for: server.baseURL) == kept)

        // Sent with the next login: the server recognises its own token and hands it back.
        try await session.signIn(try await login.signIn(email: Self.email, password: Self.password))
        #expect(try store.deviceToken(for: server.baseURL) == kept)

        // A token the server never issued is replaced by one it did.
        let planted = InMemoryTokenStore()
        let made = try #require(DeviceToken(String(repeating: "A", count: 43)))
        planted.saveDeviceToken(made, for: server.baseURL)
        _ = try await FirstPartyLogin(baseURL: server.baseURL, deviceTokens: planted).signIn(email: Self.email, password: Self.password)
        let issued = try #require(planted.deviceToken(for: server.baseURL))
        #expect(issued != made && issued != kept && issued.value.exposed.count == 43)

        // 20 wrong passwords from 20 other addresses: the account-wide cap holds new devices …
        try Self.failLogins(server, email: Self.email, count: 20)
        let newDevice = await #expect(throws: LatchkeyClientError.self) {
            try await FirstPartyLogin(baseURL: server.baseURL, deviceTokens: InMemoryTokenStore()).signIn(
                email: Self.email, password: Self.password)
        }
        #expect(newDevice?.code == .rateLimited && newDevice?.status == 429)
        // … while this device, with the right password, gets in.
        try await session.signIn(try await login.signIn(email: Self.email, password: Self.password))
        #expect(try store.deviceToken(for: server.baseURL) == kept)
    }

    @Test("a passkey sign-in sends and keeps the device token too")
    func passkeySignIn() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser(Self.email)
        let origin = "http://\(try #require(server.baseURL.host)):\(try #require(server.baseURL.port))"
        let party = try PasskeyRelyingParty(try #require(server.baseURL.host))
        let login = FirstPartyLogin(baseURL: server.baseURL)
        let session = AuthSession(store: InMemoryTokenStore(try await login.signIn(email: Self.email, password: Self.password)), refresher: .firstParty(login))
        let client = PasskeyClient(baseURL: server.baseURL, relyingParty: party, session: session)
        let options = try await client.registrationOptions()
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: options.userID)
        _ = try await client.finishRegistration(PasskeyClientTests.platformRegistration(authenticator, options, origin: origin))

        let store = InMemoryTokenStore()
        let signIn = PasskeySignIn(baseURL: server.baseURL, relyingParty: party, deviceTokens: store)
        _ = try await signIn.signIn(with: try PasskeyClientTests.platformAssertion(authenticator, try await signIn.authenticationOptions(), origin: origin))
        let kept = try #require(store.deviceToken(for: server.baseURL))
        // The next passkey sign-in sends it; the server keeps its own token, and so does the store.
        _ = try await signIn.signIn(with: try PasskeyClientTests.platformAssertion(authenticator, try await signIn.authenticationOptions(), origin: origin))
        #expect(store.deviceToken(for: server.baseURL) == kept)
        // The password sign-in from the same store presents the same device: the cap lets it in.
        try Self.failLogins(server, email: Self.email, count: 20)
        _ = try await FirstPartyLogin(baseURL: server.baseURL, deviceTokens: store).signIn(email: Self.email, password: Self.password)
        #expect(store.deviceToken(for: server.baseURL) == kept)
    }

    /// Sends `count` wrong-password logins for `email`, each from its own loopback address
    /// (127.0.1.1, 127.0.1.2, …), as an attacker spread over many addresses would.
    static func failLogins(_ server: LatchkeyServerProcess, email: String, count: Int) throws {
        let python = ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"] ?? "/usr/bin/python3"
        let script = """
            import http.client, json, sys
            host, port, email, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
            for index in range(count):
                connection = http.client.HTTPConnection(host, port, timeout=30, source_address=(f"127.0.1.{index + 1}", 0))
                body = json.dumps({"email": email, "password": f"guess {index}", "mode": "json"})
                connection.request("POST", "/auth/login", body, {"Content-Type": "application/json"})
                status = connection.getresponse().status
                connection.close()
                if status != 401:
                    sys.exit(f"guess {index}: {status}")
            """
        let result = try CommandResult.run(
            URL(fileURLWithPath: python),
            ["-c", script, try #require(server.baseURL.host), String(try #require(server.baseURL.port)), email, String(count)],
            environment: [:], stdin: nil)
        guard result.status == 0 else { throw HarnessError("failing logins: \(result.stderr)") }
    }
}

/// The device token through a two-step sign-in: the code step sends it and keeps the answer.
@Suite(.enabled(if: PythonHelper.python != nil, "LATCHKEY_TEST_PYTHON names a Python with pyotp (make test sets it)"))
struct DeviceTokenSecondFactorTests {
    @Test("the code step keeps the device token, and under the cap this device is asked for its code where a new one gets 429")
    func codeStep() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        let email = DeviceTokenLoginTests.email
        let password = DeviceTokenLoginTests.password
        try server.createUser(email)
        let plain = FirstPartyLogin(baseURL: server.baseURL)
        let session = AuthSession(store: InMemoryTokenStore(try await plain.signIn(email: email, password: password)), refresher: .firstParty(plain))
        let factor = SecondFactorClient(baseURL: server.baseURL, session: session)
        let secret = try await factor.generate(password: password)
        let recovery = try await factor.enable(secret, code: try SecondFactorClientTests.code(secret.secret, steps: -1))

        let store = InMemoryTokenStore()
        let login = FirstPartyLogin(baseURL: server.baseURL, deviceTokens: store)
        guard case .secondFactorRequired(let challenge) = try await login.beginSignIn(email: email, password: password) else {
            Issue.record("the sign-in did not ask for the code")
            return
        }
        #expect(store.deviceToken(for: server.baseURL) == nil)  // the password step hands out nothing
        _ = try await challenge.complete(code: recovery[0])
        let kept = try #require(store.deviceToken(for: server.baseURL))

        try DeviceTokenLoginTests.failLogins(server, email: email, count: 20)
        let newDevice = await #expect(throws: LatchkeyClientError.self) {
            try await FirstPartyLogin(baseURL: server.baseURL, deviceTokens: InMemoryTokenStore()).beginSignIn(email: email, password: password)
        }
        #expect(newDevice?.code == .rateLimited)
        guard case .secondFactorRequired(let again) = try await login.beginSignIn(email: email, password: password) else {
            Issue.record("the recognised device was not asked for its code")
            return
        }
        _ = try await again.complete(code: recovery[1])
        #expect(store.deviceToken(for: server.baseURL) == kept)
    }
}

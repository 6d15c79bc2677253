import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// Two-step sign-in through the SDK against the real server binary, with codes from pyotp (an
/// independent TOTP implementation; `make test` provides it in `LATCHKEY_TEST_PYTHON`).
@Suite(.enabled(if: PythonHelper.python != nil, "LATCHKEY_TEST_PYTHON names a Python with pyotp (make test sets it)"))
struct SecondFactorClientTests {
    static let email = "jane@example.com"
    static let password = ClientSecret(LatchkeyServerProcess.goodPassword)

    /// The code pyotp computes for `secret` at `steps` 30-second steps from now, away from a
    /// step's end.
    static func code(_ secret: ClientSecret, steps: Int = 0) throws -> ClientSecret {
        let script = """
            import sys, time, pyotp
            if 30 - time.time() % 30 < 1.2: time.sleep(1.3)
            print(pyotp.TOTP(sys.argv[1]).at(time.time() + 30 * \(steps)))
            """
        // The secret goes as an argument of this short-lived child only (tests' own secret). Its
        // output is read once it has exited, not to end of file: a server child started at the
        // same moment by another test may hold the pipe's write end open.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(PythonHelper.python))
        process.arguments = ["-c", script, secret.exposed]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let code = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, code.count == 6 else { throw HarnessError("pyotp failed for step \(steps)") }
        return ClientSecret(code)
    }

    @Test("enrol, then a password sign-in asks for the code; a wrong code can be retried; a recovery code works once")
    func enrolAndSignIn() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser(Self.email)
        let login = FirstPartyLogin(baseURL: server.baseURL)
        let session = AuthSession(store: InMemoryTokenStore(try await login.signIn(email: Self.email, password: Self.password)), refresher: .firstParty(login))
        let factor = SecondFactorClient(baseURL: server.baseURL, session: session)

        let wrongPassword = await #expect(throws: LatchkeyClientError.self) { try await factor.generate(password: ClientSecret("not it at all")) }
        #expect(wrongPassword?.code == .invalidCredentials)
        let secret = try await factor.generate(password: Self.password)
        #expect(secret.provisioningURL.exposed.hasPrefix("otpauth://totp/"))
        #expect(!"\(secret)".contains(secret.secret.exposed))
        let wrongCode = await #expect(throws: LatchkeyClientError.self) { try await factor.enable(secret, code: ClientSecret("000000x")) }
        #expect(wrongCode?.code == .invalidOTP)
        let recovery = try await factor.enable(secret, code: try Self.code(secret.secret, steps: -1))
        #expect(recovery.count == 10)

        guard case .secondFactorRequired(let challenge) = try await login.beginSignIn(email: Self.email, password: Self.password) else {
            Issue.record("the sign-in did not ask for the code")
            return
        }
        #expect(!"\(challenge)".contains(Self.password.exposed))
        let refused = await #expect(throws: LatchkeyClientError.self) { try await challenge.complete(code: ClientSecret("123 456")) }
        #expect(refused?.code == .invalidOTP)
        #expect(refused?.message(for: .en).contains("recovery codes") == true)
        _ = try await challenge.complete(code: try Self.code(secret.secret))
        _ = try await challenge.complete(code: ClientSecret(recovery[0].exposed.lowercased()))
        let spent = await #expect(throws: LatchkeyClientError.self) { try await challenge.complete(code: recovery[0]) }
        #expect(spent?.code == .invalidOTP)

        // Re-authentication with the factor: the password alone is not enough, with a code it is.
        let account = AccountClient(baseURL: server.baseURL, session: session)
        let noCode = await #expect(throws: LatchkeyClientError.self) {
            try await account.changeEmail(to: "jane.new@example.com", currentPassword: Self.password)
        }
        #expect(noCode?.code == .invalidOTP)
        _ = try await account.changeEmail(to: "jane.new@example.com", currentPassword: Self.password, code: recovery[1])

        let renewed = try await factor.renewRecoveryCodes(code: try Self.code(secret.secret, steps: 1))
        #expect(Set(renewed.map(\.exposed)).isDisjoint(with: recovery.map(\.exposed)))
        try await factor.disable(code: renewed[0])
        guard case .signedIn = try await login.beginSignIn(email: Self.email, password: Self.password) else {
            Issue.record("the sign-in still asked for a code after disable")
            return
        }
        #expect(!server.serverLog().contains(secret.secret.exposed))
    }
}

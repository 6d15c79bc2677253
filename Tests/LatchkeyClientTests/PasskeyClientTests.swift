import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// Passkeys through the SDK against the real server binary, with the software authenticator
/// standing in for the platform (it answers the options the SDK read, as
/// ASAuthorizationController would): register, sign in, list, rename, remove.
@Suite struct PasskeyClientTests {
    static let email = "jane@example.com"

    /// What the platform would answer to `request`, made by `authenticator` at `server`'s origin.
    static func platformRegistration(
        _ authenticator: SoftwareAuthenticator, _ request: PasskeyRegistrationRequest, origin: String
    ) -> PasskeyRegistration {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: request.challenge)
        ceremony.rpID = request.relyingParty.identifier
        ceremony.origin = origin
        let made = authenticator.register(ceremony)
        return PasskeyRegistration(
            credentialID: made.credentialID, clientDataJSON: made.clientDataJSON, attestationObject: made.attestationObject,
            attachment: .platform)
    }

    static func platformAssertion(_ authenticator: SoftwareAuthenticator, _ request: PasskeyAssertionRequest, origin: String) throws
        -> PasskeyAssertion
    {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: request.challenge)
        ceremony.rpID = request.relyingParty.identifier
        ceremony.origin = origin
        let answer = authenticator.authenticate(ceremony)
        return PasskeyAssertion(
            credentialID: answer.credentialID, clientDataJSON: answer.clientDataJSON, authenticatorData: answer.authenticatorData,
            signature: answer.signature, userHandle: try #require(answer.userHandle), attachment: .platform)
    }

    @Test("register a passkey, sign in with it, list, rename and remove it; each refusal has its stable code")
    func wholeLife() async throws {
        let server = try await LatchkeyServerProcess()
        defer { server.stop() }
        try server.createUser(Self.email)
        let origin = "http://\(try #require(server.baseURL.host)):\(try #require(server.baseURL.port))"
        let party = try PasskeyRelyingParty(try #require(server.baseURL.host))
        let login = FirstPartyLogin(baseURL: server.baseURL)
        let session = AuthSession(
            store: InMemoryTokenStore(try await login.signIn(email: Self.email, password: ClientSecret(LatchkeyServerProcess.goodPassword))),
            refresher: .firstParty(login))
        let client = PasskeyClient(baseURL: server.baseURL, relyingParty: party, session: session)
        let account = AccountClient(baseURL: server.baseURL, session: session)

        // Another relying party than the server's is refused before any sheet.
        let elsewhere = PasskeyClient(baseURL: server.baseURL, relyingParty: try PasskeyRelyingParty("evil.example"), session: session)
        let mismatch = await #expect(throws: LatchkeyClientError.self) { try await elsewhere.registrationOptions() }
        #expect(mismatch?.reasons == ["relying_party_mismatch"])

        // Register: the options name the account; the platform's answer becomes a passkey.
        let options = try await client.registrationOptions()
        #expect(options.userName == Self.email && options.excludedCredentialIDs.isEmpty)
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: options.userID)
        let registration = Self.platformRegistration(authenticator, options, origin: origin)
        let made = try await client.finishRegistration(registration, name: "  Jane's iPhone ")
        #expect(made.name == "Jane's iPhone" && made.isSynced && made.lastUsedAt == nil)
        // Its options were spent; new ones exclude it, and registering it again is passkey_exists.
        let spent = await #expect(throws: LatchkeyClientError.self) { try await client.finishRegistration(registration) }
        #expect(spent?.code == .passkeyRefused && spent?.reasons == ["challenge_not_found"])
        let again = try await client.registrationOptions()
        #expect(again.excludedCredentialIDs == [authenticator.credentialID])
        let twice = await #expect(throws: LatchkeyClientError.self) {
            try await client.finishRegistration(Self.platformRegistration(authenticator, again, origin: origin))
        }
        #expect(twice?.code == .passkeyExists)
        // A ceremony at another origin is refused with the server's reason.
        let foreign = await #expect(throws: LatchkeyClientError.self) {
            try await client.finishRegistration(
                Self.platformRegistration(
                    SoftwareAuthenticator(algorithm: .edDSA, userHandle: options.userID), try await client.registrationOptions(),
                    origin: "https://evil.example"))
        }
        #expect(foreign?.code == .passkeyRefused && foreign?.reasons == ["origin_not_allowed"])

        // Sign in with no address typed: tokens as a password sign-in's, which read the account.
        let signIn = PasskeySignIn(baseURL: server.baseURL, relyingParty: party)
        let assertion = try Self.platformAssertion(authenticator, try await signIn.authenticationOptions(), origin: origin)
        let passkeySession = AuthSession(store: InMemoryTokenStore(), refresher: .firstParty(login))
        try await passkeySession.signIn(try await signIn.signIn(with: assertion))
        #expect(try await AccountClient(baseURL: server.baseURL, session: passkeySession).current().email == Self.email)
        let replayed = await #expect(throws: LatchkeyClientError.self) { try await signIn.signIn(with: assertion) }
        #expect(replayed?.code == .passkeyRefused)

        // The list, a rename, and a removal (the account keeps its password).
        let listed = try await account.passkeys()
        #expect(listed.map(\.id) == [made.id] && listed[0].lastUsedAt != nil)
        #expect(try await account.renamePasskey(listed[0], to: "Work phone").name == "Work phone")
        try await account.deletePasskey(listed[0])
        #expect(try await account.passkeys().isEmpty)
        try await account.deletePasskey(listed[0])  // gone already: what was asked for is so
        let renameGone = await #expect(throws: LatchkeyClientError.self) { try await account.renamePasskey(listed[0], to: "x") }
        #expect(renameGone?.code == .passkeyNotFound)
        let deleted = await #expect(throws: LatchkeyClientError.self) {
            try await signIn.signIn(with: try Self.platformAssertion(authenticator, try await signIn.authenticationOptions(), origin: origin))
        }
        #expect(deleted?.code == .passkeyRefused)
    }
}

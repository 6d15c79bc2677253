import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// §7.2: an assertion passes with each key type, and each step fails on its own.
@Suite struct AuthenticationCeremonyTests {
    static let relyingParty = RegistrationCeremonyTests.relyingParty
    let challenge = SecureRandom.bytes(32)

    /// An authenticator and the record its registration left.
    private static func registered(
        _ algorithm: SoftwareAuthenticator.Algorithm, flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backedUp]
    ) throws -> (SoftwareAuthenticator, CredentialRecord) {
        let authenticator = SoftwareAuthenticator(algorithm: algorithm)
        let challenge = SecureRandom.bytes(32)
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.flags = flags
        let record = try RegistrationCeremony.verify(authenticator.register(ceremony), challenge: challenge, relyingParty: relyingParty)
        return (authenticator, record)
    }

    private func verify(
        _ response: AuthenticationResponse, _ record: CredentialRecord, userHandle: Data,
        identification: AuthenticationCeremony.UserIdentification = .discoverable, allowed: [Data] = []
    ) throws -> AuthenticationResult {
        try AuthenticationCeremony.verify(
            response, challenge: challenge, relyingParty: Self.relyingParty, credential: record, userHandle: userHandle,
            identification: identification, allowedCredentialIDs: allowed)
    }

    /// The error code verifying `response` gives, or nil if it passes.
    private func failure(
        _ response: AuthenticationResponse, _ record: CredentialRecord, userHandle: Data,
        identification: AuthenticationCeremony.UserIdentification = .discoverable, allowed: [Data] = []
    ) -> WebAuthnError.Code? {
        refusal { try verify(response, record, userHandle: userHandle, identification: identification, allowed: allowed) }
    }

    @Test("a discoverable sign-in passes with a P-256, an Ed25519 and an RSA key", arguments: SoftwareAuthenticator.Algorithm.allCases)
    func passes(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let (authenticator, record) = try Self.registered(algorithm)
        let result = try verify(authenticator.authenticate(.init(challenge: challenge)), record, userHandle: authenticator.userHandle)
        #expect(result.credentialID == record.id)
        #expect(result.userVerified && result.backupState)
        #expect(result.signCountSignal == .notKept && result.signCount == 0)
    }

    /// One change to an otherwise good assertion, and the code it must fail with.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: WebAuthnError.Code
        let change: @Sendable (inout SoftwareAuthenticator.Ceremony) -> Void
    }

    static let cases: [Case] = [
        Case(testDescription: "an origin not configured", expected: .originNotAllowed) { $0.origin = "https://example.com.evil.example" },
        Case(testDescription: "another RP ID", expected: .rpIDMismatch) { $0.rpID = "login.example.com" },
        Case(testDescription: "UV missing", expected: .userNotVerified) { $0.flags.remove(.userVerified) },
        Case(testDescription: "UP missing", expected: .userNotPresent) { $0.flags.remove(.userPresent) },
        Case(testDescription: "BS without BE", expected: .invalidBackupFlags) { $0.flags = [.userPresent, .userVerified, .backedUp] },
        Case(testDescription: "BE gone since registration", expected: .backupEligibilityChanged) { $0.flags = [.userPresent, .userVerified] },
        Case(testDescription: "another challenge", expected: .challengeMismatch) { $0.challenge = SecureRandom.bytes(32) },
        Case(testDescription: "a registration's client data", expected: .wrongCeremonyType) { $0.type = "webauthn.create" },
        Case(testDescription: "crossOrigin true", expected: .crossOriginRefused) { $0.crossOrigin = true },
        Case(testDescription: "another account's user handle", expected: .userHandleMismatch) { $0.userHandle = SecureRandom.bytes(16) },
        Case(testDescription: "no user handle in a discoverable sign-in", expected: .userHandleMismatch) { $0.userHandle = Data() },
    ]

    @Test("each check of §7.2 fails on its own", arguments: cases)
    func fails(_ testCase: Case) throws {
        let (authenticator, record) = try Self.registered(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        testCase.change(&ceremony)
        #expect(failure(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle) == testCase.expected)
    }

    @Test("a signature, authenticator data or client data changed after signing is refused, for each key type",
          arguments: SoftwareAuthenticator.Algorithm.allCases)
    func tampered(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let (authenticator, record) = try Self.registered(algorithm)
        let response = authenticator.authenticate(.init(challenge: challenge))
        func with(authenticatorData: Data? = nil, clientDataJSON: Data? = nil, signature: Data? = nil) -> AuthenticationResponse {
            AuthenticationResponse(
                credentialID: response.credentialID, clientDataJSON: clientDataJSON ?? response.clientDataJSON,
                authenticatorData: authenticatorData ?? response.authenticatorData, signature: signature ?? response.signature,
                userHandle: response.userHandle)
        }
        var signature = response.signature
        signature[signature.count - 2] ^= 0x01
        #expect(failure(with(signature: signature), record, userHandle: authenticator.userHandle) == .invalidSignature)
        // The counter raised: the data still parses and passes every flag check.
        var authenticatorData = response.authenticatorData
        authenticatorData[36] ^= 0x01
        #expect(failure(with(authenticatorData: authenticatorData), record, userHandle: authenticator.userHandle) == .invalidSignature)
        // An extra space in the client data: still valid JSON saying the same.
        var clientData = response.clientDataJSON
        clientData.insert(UInt8(ascii: " "), at: 1)
        #expect(failure(with(clientDataJSON: clientData), record, userHandle: authenticator.userHandle) == .invalidSignature)
        // Another credential's signature.
        let other = SoftwareAuthenticator(algorithm: algorithm, credentialID: authenticator.credentialID, userHandle: authenticator.userHandle)
        #expect(failure(other.authenticate(.init(challenge: challenge)), record, userHandle: authenticator.userHandle) == .invalidSignature)
    }

    @Test("an assertion for a credential outside allowCredentials, or naming another credential than the record, is refused")
    func credentialChecks() throws {
        let (authenticator, record) = try Self.registered(.edDSA)
        let response = authenticator.authenticate(.init(challenge: challenge))
        #expect(failure(response, record, userHandle: authenticator.userHandle, allowed: [SecureRandom.bytes(32)]) == .credentialNotAllowed)
        #expect(failure(response, record, userHandle: authenticator.userHandle, allowed: [SecureRandom.bytes(32), record.id]) == nil)
        let (_, otherRecord) = try Self.registered(.edDSA)
        #expect(failure(response, otherRecord, userHandle: authenticator.userHandle) == .credentialIDMismatch)
    }

    @Test("with the account identified first, the user handle may be left out but must match when sent")
    func identifiedAccount() throws {
        let (authenticator, record) = try Self.registered(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.userHandle = Data()
        #expect(failure(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle, identification: .identified) == nil)
        ceremony.userHandle = SecureRandom.bytes(16)
        #expect(failure(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle, identification: .identified)
            == .userHandleMismatch)
    }

    @Test("the sign count is a signal: advancing is stored, standing still or going back is flagged and never lowers what is stored")
    func signCount() throws {
        let (authenticator, registeredRecord) = try Self.registered(.es256, flags: [.userPresent, .userVerified])
        var record = registeredRecord
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.flags = [.userPresent, .userVerified]
        ceremony.signCount = 5
        let first = try verify(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle)
        #expect(first.signCountSignal == .advanced && first.signCount == 5)
        record.signCount = first.signCount
        ceremony.signCount = 5
        let same = try verify(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle)
        #expect(same.signCountSignal == .didNotAdvance && same.signCount == 5)
        ceremony.signCount = 2
        let back = try verify(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle)
        #expect(back.signCountSignal == .didNotAdvance && back.signCount == 5)
        ceremony.signCount = 0
        let zero = try verify(authenticator.authenticate(ceremony), record, userHandle: authenticator.userHandle)
        #expect(zero.signCountSignal == .didNotAdvance && zero.signCount == 5)
    }

    @Test("an assertion whose authenticator data carries a credential (AT) is refused")
    func attestedDataInAssertion() throws {
        let (authenticator, record) = try Self.registered(.edDSA)
        let ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        let clientDataJSON = SoftwareAuthenticator.clientDataJSON(ceremony, type: "webauthn.get")
        let authenticatorData = authenticator.authenticatorData(ceremony, attested: true)
        let response = AuthenticationResponse(
            credentialID: authenticator.credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: authenticator.sign(authenticatorData + SHA256.hash(clientDataJSON)), userHandle: authenticator.userHandle)
        #expect(failure(response, record, userHandle: authenticator.userHandle) == .invalidAuthenticatorData)
    }
}

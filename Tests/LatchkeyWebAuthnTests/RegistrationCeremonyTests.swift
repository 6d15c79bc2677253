import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// §7.1: a registration passes with each key type, and each step fails on its own.
@Suite struct RegistrationCeremonyTests {
    static let relyingParty = RelyingParty(id: "example.com", origins: ["https://example.com", "https://login.example.com"])
    let challenge = SecureRandom.bytes(32)

    /// The error code verifying `response` gives, or nil if it passes.
    private func failure(_ response: RegistrationResponse, relyingParty: RelyingParty = relyingParty) -> WebAuthnError.Code? {
        refusal { try RegistrationCeremony.verify(response, challenge: challenge, relyingParty: relyingParty) }
    }

    @Test("a registration passes with a P-256, an Ed25519 and an RSA key, and its record holds what the authenticator said",
          arguments: SoftwareAuthenticator.Algorithm.allCases)
    func passes(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let authenticator = SoftwareAuthenticator(algorithm: algorithm)
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.signCount = 7
        let record = try RegistrationCeremony.verify(
            authenticator.register(ceremony, transports: ["internal", "hybrid"]), challenge: challenge,
            relyingParty: Self.relyingParty)
        #expect(record.id == authenticator.credentialID)
        #expect(record.publicKey == authenticator.publicKey)
        #expect(record.algorithm == authenticator.algorithm)
        #expect(record.signCount == 7)
        #expect(record.backupEligible && record.backupState && record.userVerifiedAtRegistration)
        #expect(record.transports == ["internal", "hybrid"])
        #expect(record.aaguid == Data(count: 16))
        #expect(record.attestationFormat == "none")
    }

    @Test("a device-bound credential (neither BE nor BS) is recorded as such; the second origin is accepted too")
    func deviceBound() throws {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.flags = [.userPresent, .userVerified]
        ceremony.origin = "https://login.example.com"
        let record = try RegistrationCeremony.verify(
            SoftwareAuthenticator(algorithm: .es256).register(ceremony), challenge: challenge, relyingParty: Self.relyingParty)
        #expect(!record.backupEligible && !record.backupState)
    }

    @Test("packed self attestation verifies with the credential's key, for each key type",
          arguments: SoftwareAuthenticator.Algorithm.allCases)
    func packedSelfAttestation(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        ceremony.attestation = .packedSelf
        let record = try RegistrationCeremony.verify(
            SoftwareAuthenticator(algorithm: algorithm).register(ceremony), challenge: challenge, relyingParty: Self.relyingParty)
        #expect(record.attestationFormat == "packed")
    }

    /// One change to an otherwise good ceremony, and the code it must fail with.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: WebAuthnError.Code
        let change: @Sendable (inout SoftwareAuthenticator.Ceremony) -> Void
    }

    static let cases: [Case] = [
        Case(testDescription: "an origin not configured", expected: .originNotAllowed) { $0.origin = "https://evil.example" },
        Case(testDescription: "an origin differing in its port", expected: .originNotAllowed) { $0.origin = "https://example.com:8443" },
        Case(testDescription: "an origin with a trailing slash", expected: .originNotAllowed) { $0.origin = "https://example.com/" },
        Case(testDescription: "an http origin", expected: .originNotAllowed) { $0.origin = "http://example.com" },
        Case(testDescription: "another RP ID", expected: .rpIDMismatch) { $0.rpID = "evil.example" },
        Case(testDescription: "a parent domain as RP ID", expected: .rpIDMismatch) { $0.rpID = "com" },
        Case(testDescription: "UV missing", expected: .userNotVerified) { $0.flags.remove(.userVerified) },
        Case(testDescription: "UP missing", expected: .userNotPresent) { $0.flags.remove(.userPresent) },
        Case(testDescription: "BS without BE", expected: .invalidBackupFlags) { $0.flags = [.userPresent, .userVerified, .backedUp] },
        Case(testDescription: "another challenge", expected: .challengeMismatch) { $0.challenge = SecureRandom.bytes(32) },
        Case(testDescription: "the challenge cut short", expected: .challengeMismatch) { $0.challenge = $0.challenge.prefix(31) },
        Case(testDescription: "an authentication's client data", expected: .wrongCeremonyType) { $0.type = "webauthn.get" },
        Case(testDescription: "crossOrigin true", expected: .crossOriginRefused) { $0.crossOrigin = true },
        Case(testDescription: "a topOrigin", expected: .crossOriginRefused) { $0.topOrigin = "https://example.com" },
        Case(testDescription: "a 'none' statement that is not empty", expected: .invalidAttestation) {
            $0.attestation = .custom(format: "none", statement: CBORMap(entries: [.init(key: .text("sig"), value: .bytes(Data([1])))]))
        },
        Case(testDescription: "a 'fido-u2f' attestation", expected: .unsupportedAttestation) {
            $0.attestation = .custom(format: "fido-u2f", statement: CBORMap(entries: []))
        },
        Case(testDescription: "an 'apple' attestation", expected: .unsupportedAttestation) {
            $0.attestation = .custom(format: "apple", statement: CBORMap(entries: []))
        },
        Case(testDescription: "'packed' with a certificate chain", expected: .unsupportedAttestation) {
            $0.attestation = .custom(format: "packed", statement: CBORMap(entries: [
                .init(key: .text("alg"), value: .integer(-7)), .init(key: .text("sig"), value: .bytes(Data([0x30]))),
                .init(key: .text("x5c"), value: .array([.bytes(Data([0x30]))])),
            ]))
        },
        Case(testDescription: "'packed' self attestation with a wrong signature", expected: .invalidAttestation) {
            $0.attestation = .custom(format: "packed", statement: CBORMap(entries: [
                .init(key: .text("alg"), value: .integer(-7)), .init(key: .text("sig"), value: .bytes(Data(repeating: 1, count: 70))),
            ]))
        },
    ]

    @Test("each check of §7.1 fails on its own", arguments: cases)
    func fails(_ testCase: Case) {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: challenge)
        testCase.change(&ceremony)
        #expect(failure(SoftwareAuthenticator(algorithm: .es256).register(ceremony)) == testCase.expected)
    }

    @Test("an algorithm the relying party does not accept is refused, though the key is valid")
    func algorithmNotAccepted() {
        let onlyEdDSA = RelyingParty(id: "example.com", origins: ["https://example.com"], algorithms: [.edDSA])
        let response = SoftwareAuthenticator(algorithm: .es256).register(.init(challenge: challenge))
        #expect(failure(response, relyingParty: onlyEdDSA) == .unsupportedAlgorithm)
        let edDSA = SoftwareAuthenticator(algorithm: .edDSA).register(.init(challenge: challenge))
        #expect(failure(edDSA, relyingParty: onlyEdDSA) == nil)
    }

    @Test("a credential ID of 1023 bytes is accepted and one of 1024 refused")
    func credentialIDLength() {
        let longest = SoftwareAuthenticator(algorithm: .edDSA, credentialID: SecureRandom.bytes(1023))
        #expect(failure(longest.register(.init(challenge: challenge))) == nil)
        let tooLong = SoftwareAuthenticator(algorithm: .edDSA, credentialID: SecureRandom.bytes(1024))
        #expect(failure(tooLong.register(.init(challenge: challenge))) == .credentialIDTooLong)
    }

    @Test("the response must name the credential its authenticator data carries")
    func credentialIDMismatch() {
        let response = SoftwareAuthenticator(algorithm: .es256).register(.init(challenge: challenge))
        let renamed = RegistrationResponse(
            credentialID: SecureRandom.bytes(32), clientDataJSON: response.clientDataJSON,
            attestationObject: response.attestationObject, transports: response.transports)
        #expect(failure(renamed) == .credentialIDMismatch)
    }

    @Test("tampered client data or authenticator data is refused")
    func tampered() throws {
        let response = SoftwareAuthenticator(algorithm: .es256).register(.init(challenge: challenge))
        // The client data's JSON broken.
        var clientData = response.clientDataJSON
        clientData[clientData.startIndex] = UInt8(ascii: "[")
        #expect(failure(RegistrationResponse(
            credentialID: response.credentialID, clientDataJSON: clientData, attestationObject: response.attestationObject,
            transports: []))
            == .invalidClientData)
        // The flags byte in the attestation object's authData turned to UP only: UV missing.
        let object = try #require(CBOR.parse(bytes: response.attestationObject).mapValue)
        var authData = try #require(object[text: "authData"]?.byteString)
        authData[32] = AuthenticatorFlags([.userPresent, .attestedCredentialData]).rawValue
        let mangled = CBOREncoder.encode(.map([.text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .bytes(authData)]))
        #expect(failure(RegistrationResponse(
            credentialID: response.credentialID, clientDataJSON: response.clientDataJSON, attestationObject: mangled,
            transports: []))
            == .userNotVerified)
        // The authenticator data without its attested credential data.
        let bare = CBOREncoder.encode(.map([
            .text("fmt"): .text("none"), .text("attStmt"): .map([:]),
            .text("authData"): .bytes(authData.prefix(32) + Data([0x05]) + authData[33..<37]),
        ]))
        #expect(failure(RegistrationResponse(
            credentialID: response.credentialID, clientDataJSON: response.clientDataJSON, attestationObject: bare,
            transports: []))
            == .invalidAuthenticatorData)
    }
}

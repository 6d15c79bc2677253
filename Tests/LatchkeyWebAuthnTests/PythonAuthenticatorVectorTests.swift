import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import Testing

/// The fixed vector e2e/webauthn_authenticator.py wrote (Fixtures/python-authenticator.json:
/// a registration and a sign-in from a P-256 and an Ed25519 credential, in the W3C JSON
/// form): the Swift verifier accepts what the Python authenticator the e2e tests use makes,
/// with keys, CBOR and signatures from an independent implementation (`cryptography`).
@Suite struct PythonAuthenticatorVectorTests {
    private struct Vector: Decodable {
        let rpId: String
        let origin: String
        let userHandle: String
        let registrationChallenge: String
        let registration: RegistrationResponse
        let authenticationChallenge: String
        let authentication: AuthenticationResponse
    }

    private static func vectors() throws -> [String: Vector] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/python-authenticator.json")
        return try JSONDecoder().decode([String: Vector].self, from: Data(contentsOf: file))
    }

    @Test("the Python authenticator's registration and sign-in verify", arguments: ["ES256", "EdDSA"])
    func verifies(_ algorithm: String) throws {
        let vector = try #require(try Self.vectors()[algorithm])
        let relyingParty = RelyingParty(id: vector.rpId, origins: [vector.origin])
        let record = try RegistrationCeremony.verify(
            vector.registration, challenge: try #require(Base64URL.decode(vector.registrationChallenge)), relyingParty: relyingParty)
        #expect(record.algorithm.name == algorithm)
        #expect(record.transports == ["internal", "hybrid"])
        #expect(record.backupEligible && record.backupState)
        let result = try AuthenticationCeremony.verify(
            vector.authentication, challenge: try #require(Base64URL.decode(vector.authenticationChallenge)),
            relyingParty: relyingParty, credential: record, userHandle: try #require(Base64URL.decode(vector.userHandle)),
            identification: .discoverable)
        #expect(result.signCountSignal == .advanced && result.signCount == 1)
    }

    @Test("the vector's sign-in fails against another challenge, origin or user handle")
    func failsWhenChanged() throws {
        let vector = try #require(try Self.vectors()["EdDSA"])
        let relyingParty = RelyingParty(id: vector.rpId, origins: [vector.origin])
        let record = try RegistrationCeremony.verify(
            vector.registration, challenge: try #require(Base64URL.decode(vector.registrationChallenge)), relyingParty: relyingParty)
        let handle = try #require(Base64URL.decode(vector.userHandle))
        let challenge = try #require(Base64URL.decode(vector.authenticationChallenge))
        #expect(throws: WebAuthnError.self) {
            try AuthenticationCeremony.verify(
                vector.authentication, challenge: SecureRandom.bytes(32), relyingParty: relyingParty, credential: record,
                userHandle: handle, identification: .discoverable)
        }
        #expect(throws: WebAuthnError.self) {
            try AuthenticationCeremony.verify(
                vector.authentication, challenge: challenge,
                relyingParty: RelyingParty(id: vector.rpId, origins: ["https://other.example"]), credential: record,
                userHandle: handle, identification: .discoverable)
        }
        #expect(throws: WebAuthnError.self) {
            try AuthenticationCeremony.verify(
                vector.authentication, challenge: challenge, relyingParty: relyingParty, credential: record,
                userHandle: Data(handle.reversed()), identification: .discoverable)
        }
    }
}

import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// Authenticator data (§6.1): its parts read at their offsets, and every structural fault
/// refused.
@Suite struct AuthenticatorDataTests {
    let authenticator = SoftwareAuthenticator(algorithm: .es256)

    private func code(_ bytes: Data) -> WebAuthnError.Code? {
        refusal { try AuthenticatorData.parse(bytes: bytes) }
    }

    @Test("a registration's data reads as the RP ID hash, flags, counter, AAGUID, credential ID and key")
    func registrationData() throws {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: Data([1]))
        ceremony.signCount = 0x0102_0304
        let data = try AuthenticatorData.parse(bytes: authenticator.authenticatorData(ceremony, attested: true))
        #expect(data.rpIDHash == SHA256.hash(utf8: "example.com"))
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backedUp, .attestedCredentialData])
        #expect(data.signCount == 0x0102_0304)
        let attested = try #require(data.attestedCredentialData)
        #expect(attested.aaguid == Data(count: 16))
        #expect(attested.credentialID == authenticator.credentialID)
        #expect(attested.publicKey.encoded == authenticator.publicKey)
        #expect(data.extensions == nil)
    }

    @Test("extension outputs after the key are read and bounds-checked, and the flags must announce them")
    func extensions() throws {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: Data([1]))
        ceremony.extensions = CBORValue.map([.text("credProtect"): .integer(2)]).mapValue
        let withExtensions = authenticator.authenticatorData(ceremony, attested: true)
        let data = try AuthenticatorData.parse(bytes: withExtensions)
        #expect(data.extensions?[text: "credProtect"] == .unsigned(2))
        // Without ED the extension map is trailing bytes.
        var unannounced = withExtensions
        unannounced[32] &= ~AuthenticatorFlags.extensionData.rawValue
        #expect(code(unannounced) == .invalidAuthenticatorData)
        // ED with nothing after the key.
        var missing = authenticator.authenticatorData(.init(challenge: Data([1])), attested: true)
        missing[32] |= AuthenticatorFlags.extensionData.rawValue
        #expect(code(missing) == .invalidCBOR)
        // Extension outputs that are not a map.
        #expect(code(missing + Data([0x01])) == .invalidAuthenticatorData)
        // A truncated extension map.
        #expect(code(withExtensions.dropLast()) == .invalidCBOR)
    }

    /// A change to valid registration data, and the code it must be refused with.
    struct Fault: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: WebAuthnError.Code
        let change: @Sendable (Data) -> Data
    }

    static let faults: [Fault] = [
        Fault(testDescription: "36 bytes", expected: .invalidAuthenticatorData) { $0.prefix(36) },
        Fault(testDescription: "a trailing byte", expected: .invalidAuthenticatorData) { $0 + Data([0]) },
        Fault(testDescription: "AT with the credential ID length cut", expected: .invalidAuthenticatorData) { $0.prefix(37 + 17) },
        Fault(testDescription: "a credential ID running past the end", expected: .invalidAuthenticatorData) { $0.prefix(37 + 18 + 10) },
        Fault(testDescription: "the key cut short", expected: .invalidCBOR) { $0.dropLast() },
        Fault(testDescription: "a credential ID length of 0", expected: .credentialIDTooLong) { data in
            var data = data
            data[53] = 0
            data[54] = 0
            return data
        },
        Fault(testDescription: "a credential ID length of 1024", expected: .credentialIDTooLong) { data in
            var data = data
            data[53] = 4
            data[54] = 0
            return data
        },
        Fault(testDescription: "BS without BE", expected: .invalidBackupFlags) { data in
            var data = data
            data[32] = 0x55
            return data
        },
    ]

    @Test("structural faults are refused", arguments: faults)
    func refuses(_ fault: Fault) {
        let valid = authenticator.authenticatorData(.init(challenge: Data([1])), attested: true)
        #expect(code(fault.change(Data(valid))) == fault.expected)
    }

    @Test("an assertion's 37 bytes parse; authenticator data past 8 KiB is refused before it is read")
    func sizes() throws {
        let assertion = authenticator.authenticatorData(.init(challenge: Data([1])), attested: false)
        #expect(assertion.count == 37)
        #expect(try AuthenticatorData.parse(bytes: assertion).attestedCredentialData == nil)
        #expect(code(assertion + Data(count: AuthenticatorData.maximumLength)) == .responseTooLarge)
    }

    @Test("every single-byte change to a registration's data either parses or is refused with a WebAuthnError")
    func everyByteFlipped() {
        var ceremony = SoftwareAuthenticator.Ceremony(challenge: Data([1]))
        ceremony.extensions = CBORValue.map([.text("credProtect"): .integer(2)]).mapValue
        let valid = authenticator.authenticatorData(ceremony, attested: true)
        for index in valid.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = valid
                changed[index] ^= flip
                do {
                    _ = try AuthenticatorData.parse(bytes: changed)
                } catch is WebAuthnError {
                } catch {
                    Issue.record("byte \(index) ^ \(flip): not a WebAuthnError: \(error)")
                }
            }
        }
    }
}

import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// COSE keys: the three kinds WebAuthn credentials use parse and verify; every other shape
/// is refused with its code.
@Suite struct COSEKeyTests {
    private func code(_ map: CBORValue) -> WebAuthnError.Code? {
        refusal { try COSEKey.parse(bytes: CBOREncoder.encode(map)) }
    }

    /// A P-256 key's coordinates, made once.
    static let p256 = P256PrivateKey.generate()

    /// An EC2 key map with `changes` applied (nil removes a label).
    private func ec2(_ changes: [Int64: CBORValue?] = [:]) -> CBORValue {
        var entries: [(Int64, CBORValue)] = [
            (1, .integer(2)), (3, .integer(-7)), (-1, .integer(1)), (-2, .bytes(Self.p256.publicKey.x)), (-3, .bytes(Self.p256.publicKey.y)),
        ]
        for (label, value) in changes {
            entries.removeAll { $0.0 == label }
            if let value { entries.append((label, value)) }
        }
        return .map(CBORMap(entries: entries.map { .init(key: .integer($0.0), value: $0.1) }))
    }

    @Test("keys of each algorithm parse, keep their bytes and verify their credential's signatures",
          arguments: SoftwareAuthenticator.Algorithm.allCases)
    func parses(_ algorithm: SoftwareAuthenticator.Algorithm) throws {
        let authenticator = SoftwareAuthenticator(algorithm: algorithm)
        let key = try COSEKey.parse(bytes: authenticator.publicKey)
        #expect(key.algorithm == authenticator.algorithm)
        #expect(key.encoded == authenticator.publicKey)
        let message = Data("authData and the client data hash".utf8)
        #expect(key.isValidSignature(authenticator.sign(message), for: message))
        #expect(!key.isValidSignature(authenticator.sign(message), for: message + Data([0])))
    }

    @Test("an ES256 key verifies DER signatures only, not JWS's raw r‖s")
    func es256WantsDER() throws {
        let key = try COSEKey.parse(bytes: CBOREncoder.encode(ec2()))
        let message = Data("m".utf8)
        let raw = Self.p256.signature(for: message)
        #expect(!key.isValidSignature(raw, for: message))
        #expect(key.isValidSignature(SoftwareAuthenticator.der(raw: raw), for: message))
    }

    @Test("malformed or disallowed keys are refused", arguments: [
        ("no alg", [3: nil] as [Int64: CBORValue?], WebAuthnError.Code.invalidCredentialKey),
        ("ES384", [3: .integer(-35)], .unsupportedAlgorithm),
        ("PS256", [3: .integer(-37)], .unsupportedAlgorithm),
        ("alg as text", [3: .text("ES256")], .invalidCredentialKey),
        ("EdDSA on an EC2 key", [3: .integer(-8)], .invalidCredentialKey),
        ("the OKP key type", [1: .integer(1)], .invalidCredentialKey),
        ("no key type", [1: nil], .invalidCredentialKey),
        ("curve P-384", [-1: .integer(2)], .invalidCredentialKey),
        ("no y", [-3: nil], .invalidCredentialKey),
        ("y as a sign bit (compressed)", [-3: .bool(true)], .invalidCredentialKey),
        ("x of 31 bytes", [-2: .bytes(Data(count: 31))], .invalidCredentialKey),
        ("a point not on the curve", [-2: .bytes(Data(repeating: 1, count: 32))], .invalidCredentialKey),
        ("a kid", [2: .bytes(Data([1]))], .invalidCredentialKey),
        ("a private key", [-4: .bytes(Data(count: 32))], .invalidCredentialKey),
    ])
    func refusesEC2(_ label: String, _ changes: [Int64: CBORValue?], _ expected: WebAuthnError.Code) {
        #expect(code(ec2(changes)) == expected, "\(label)")
    }

    @Test("OKP keys other than Ed25519 and RSA keys below 2048 bits are refused")
    func refusesWeakOrOtherKeys() {
        let x25519 = CBORValue.map([.integer(1): .integer(1), .integer(3): .integer(-8), .integer(-1): .integer(4), .integer(-2): .bytes(Data(count: 32))])
        #expect(code(x25519) == .invalidCredentialKey)
        let ed25519Short = CBORValue.map([.integer(1): .integer(1), .integer(3): .integer(-8), .integer(-1): .integer(6), .integer(-2): .bytes(Data(count: 31))])
        #expect(code(ed25519Short) == .invalidCredentialKey)
        var modulus = Data(repeating: 0xFF, count: 128)
        modulus[127] = 0xF1
        let rsa1024 = CBORValue.map([.integer(1): .integer(3), .integer(3): .integer(-257), .integer(-1): .bytes(modulus), .integer(-2): .bytes(Data([1, 0, 1]))])
        #expect(code(rsa1024) == .invalidCredentialKey)
        let rsaEvenExponent = CBORValue.map([
            .integer(1): .integer(3), .integer(3): .integer(-257), .integer(-1): .bytes(Data(repeating: 0xFF, count: 256)), .integer(-2): .bytes(Data([2])),
        ])
        #expect(code(rsaEvenExponent) == .invalidCredentialKey)
    }

    @Test("a key that is not a map, or is nested, is refused")
    func notAMap() {
        #expect(code(.array([.integer(1)])) == .invalidCredentialKey)
        #expect(code(.map([.integer(1): .map([:])])) == .cborLimitExceeded)
        #expect(code(.bytes(Data(count: 4))) == .invalidCredentialKey)
    }
}

import Foundation
import LatchkeyCrypto
import Testing

@Suite struct Argon2Tests {
    @Test("raw Argon2id reproduces the RFC 9106 §5.3 test vector (with secret and associated data)")
    func rfc9106Vector() throws {
        let tag = try LibArgon2.tag(
            .argon2id, password: Data(repeating: 0x01, count: 32),
            salt: Data(repeating: 0x02, count: 16),
            secret: Data(repeating: 0x03, count: 8),
            associatedData: Data(repeating: 0x04, count: 12),
            parameters: Argon2Parameters(memoryKiB: 32, iterations: 3, parallelism: 4),
            tagLength: 32)
        #expect(tag.hex == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
    }

    @Test("raw Argon2id reproduces the tag of the reference implementation's PHC string")
    func referenceTag() throws {
        let tag = try LibArgon2.tag(
            .argon2id, password: Data("password".utf8), salt: Data("somesalt".utf8),
            parameters: Argon2Parameters(memoryKiB: 65536, iterations: 2, parallelism: 1), tagLength: PasswordHasher.tagLength)
        // The PHC string's tag field is standard base64 without padding.
        #expect(tag.base64EncodedString().replacingOccurrences(of: "=", with: "")
            == "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
    }

    @Test("raw Argon2id rejects a salt under 8 bytes and a tag under 4 bytes")
    func rawRejectsBadLengths() throws {
        let parameters = try Argon2Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)
        #expect {
            try LibArgon2.tag(
            .argon2id, password: Data(), salt: Data(count: 7), parameters: parameters, tagLength: PasswordHasher.tagLength)
        } throws: { ($0 as? LatchkeyCryptoError)?.code == .invalidParameters }
        #expect {
            try LibArgon2.tag(
            .argon2id, password: Data(), salt: Data(count: 8), parameters: parameters, tagLength: 3)
        } throws: { ($0 as? LatchkeyCryptoError)?.code == .invalidParameters }
    }

    @Test("OWASP minimum is m=19456 KiB, t=2, p=1")
    func owaspMinimum() {
        let minimum = Argon2Parameters.owaspMinimum
        #expect(minimum.memoryKiB == 19456)
        #expect(minimum.iterations == 2)
        #expect(minimum.parallelism == 1)
    }

    @Test("parameters outside the allowed ranges are rejected", arguments: [
        (0, 1, 1), (7, 1, 1), (31, 1, 4), (1_048_577, 1, 1),
        (64, 0, 1), (64, 65, 1), (64, 1, 0), (1024, 1, 65),
    ])
    func invalidParameters(memoryKiB: Int, iterations: Int, parallelism: Int) {
        #expect {
            try Argon2Parameters(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
        } throws: { ($0 as? LatchkeyCryptoError)?.code == .invalidParameters }
    }

    @Test("the smallest and largest allowed parameters are accepted")
    func boundaryParameters() throws {
        _ = try Argon2Parameters(memoryKiB: 8, iterations: 1, parallelism: 1)
        _ = try Argon2Parameters(memoryKiB: 32, iterations: 64, parallelism: 4)
        _ = try Argon2Parameters(memoryKiB: 1_048_576, iterations: 1, parallelism: 64)
    }
}

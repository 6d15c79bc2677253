import Foundation
import Testing

@testable import LatchkeyCrypto

/// The AES-256-GCM test cases 13–16 of McGrew and Viega's GCM specification (the vectors NIST's
/// GCM validation started from), and what ``SecretBox`` promises on top of them.
@Suite struct SecretBoxTests {
    private static let key15 = hexData("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
    private static let nonce15 = hexData("cafebabefacedbaddecaf888")
    private static let plaintext15 = hexData(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255")

    @Test("AES-256-GCM gives the GCM specification's test cases 13–16, and opens them again")
    func gcmVectors() throws {
        let cases: [(key: Data, nonce: Data, plaintext: Data, aad: Data, expected: String)] = [
            (Data(count: 32), Data(count: 12), Data(), Data(), "530f8afbc74536b9a963b4f1c4cb738b"),
            (Data(count: 32), Data(count: 12), Data(count: 16), Data(), "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919"),
            (
                Self.key15, Self.nonce15, Self.plaintext15, Data(),
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
                    + "b094dac5d93471bdec1a502270e3cc6c"
            ),
            (
                Self.key15, Self.nonce15, Self.plaintext15.prefix(60), hexData("feedfacedeadbeeffeedfacedeadbeefabaddad2"),
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                    + "76fc6ece0f4e1768cddf8853bb2d551b"
            ),
        ]
        for vector in cases {
            let sealed = LibCrypto.aes256GCMSeal(key: vector.key, nonce: vector.nonce, plaintext: Data(vector.plaintext), additionalData: vector.aad)
            #expect(sealed.hex == vector.expected)
            #expect(LibCrypto.aes256GCMOpen(key: vector.key, nonce: vector.nonce, sealed: sealed, additionalData: vector.aad) == Data(vector.plaintext))
        }
    }

    @Test("AES-256-GCM refuses a changed tag, ciphertext, nonce or additional data")
    func gcmRefusesChanges() {
        let aad = hexData("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = LibCrypto.aes256GCMSeal(key: Self.key15, nonce: Self.nonce15, plaintext: Self.plaintext15, additionalData: aad)
        for index in [0, 30, sealed.count - 1] {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(LibCrypto.aes256GCMOpen(key: Self.key15, nonce: Self.nonce15, sealed: changed, additionalData: aad) == nil)
        }
        var otherNonce = Self.nonce15
        otherNonce[0] ^= 0x80
        #expect(LibCrypto.aes256GCMOpen(key: Self.key15, nonce: otherNonce, sealed: sealed, additionalData: aad) == nil)
        #expect(LibCrypto.aes256GCMOpen(key: Self.key15, nonce: Self.nonce15, sealed: sealed, additionalData: aad.dropLast()) == nil)
        #expect(LibCrypto.aes256GCMOpen(key: Self.key15, nonce: Self.nonce15, sealed: sealed.prefix(15), additionalData: aad) == nil)
    }

    @Test("A sealed secret opens for its purpose and owner, and for nothing else")
    func boundToPurposeAndOwner() throws {
        let box = try SecretBox(key: Redacted(SecureRandom.bytes(32)))
        let secret = Data("12345678901234567890".utf8)
        let sealed = box.seal(secret, purpose: "totp-secret", binding: "account-a")
        #expect(try box.open(sealed, purpose: "totp-secret", binding: "account-a").exposed == secret)
        #expect(!sealed.contains("MTIzNDU2Nzg5MDEyMzQ1Njc4OTA"), "the secret's own base64url does not show")
        #expect(throws: LatchkeyCryptoError.self) { try box.open(sealed, purpose: "totp-secret", binding: "account-b") }
        #expect(throws: LatchkeyCryptoError.self) { try box.open(sealed, purpose: "outbox-mail", binding: "account-a") }
        // A length prefix keeps "ab"+"c" and "a"+"bc" apart.
        let split = box.seal(secret, purpose: "ab", binding: "c")
        #expect(throws: LatchkeyCryptoError.self) { try box.open(split, purpose: "a", binding: "bc") }
    }

    @Test("Two seals of one secret differ (a fresh nonce each), and both open")
    func freshNonces() throws {
        let box = try SecretBox(key: Redacted(SecureRandom.bytes(32)))
        let first = box.seal(Data("same".utf8), purpose: "p", binding: "b")
        let second = box.seal(Data("same".utf8), purpose: "p", binding: "b")
        #expect(first != second)
        #expect(try box.open(first, purpose: "p", binding: "b").exposed == Data("same".utf8))
        #expect(try box.open(second, purpose: "p", binding: "b").exposed == Data("same".utf8))
    }

    @Test("A text sealed under another key file is refused as such; a changed one as damaged")
    func wrongKeyAndDamage() throws {
        let box = try SecretBox(key: Redacted(SecureRandom.bytes(32)))
        let other = try SecretBox(key: Redacted(SecureRandom.bytes(32)))
        let sealed = box.seal(Data("secret".utf8), purpose: "p", binding: "b")
        #expect { try other.open(sealed, purpose: "p", binding: "b") } throws: { ($0 as? LatchkeyCryptoError)?.code == .wrongKey }
        var characters = Array(sealed)
        characters[characters.count - 3] = characters[characters.count - 3] == "A" ? "B" : "A"
        #expect { try box.open(String(characters), purpose: "p", binding: "b") } throws: {
            ($0 as? LatchkeyCryptoError)?.code == .sealedSecretRefused
        }
        for malformed in ["", "v1", "v2.00000000.AAAA", sealed + ".x", "v1.\(sealed.split(separator: ".")[1]).!!!!"] {
            #expect(throws: LatchkeyCryptoError.self) { try box.open(malformed, purpose: "p", binding: "b") }
        }
    }

    @Test("A key of any size but 32 bytes is refused, and a box prints no key")
    func keySize() throws {
        #expect(throws: LatchkeyCryptoError.self) { try SecretBox(key: Redacted(Data(count: 16))) }
        let key = Data(repeating: 0x41, count: 32)
        let box = try SecretBox(key: Redacted(key))
        #expect(!"\(box)".contains("AAAA"))
        #expect("\(box)".hasPrefix("SecretBox(key "))
    }

    @Test("HMAC-SHA1 gives RFC 2202's test cases 1 and 2")
    func hmacSHA1Vectors() {
        #expect(HMACSHA1.authenticationCode(for: Data("Hi There".utf8), key: Data(repeating: 0x0b, count: 20)).hex
            == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(HMACSHA1.authenticationCode(for: Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)).hex
            == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }
}

private func hexData(_ text: String) -> Data {
    Hex.decode(text)!
}

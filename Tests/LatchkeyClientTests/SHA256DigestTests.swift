import LatchkeyClient
import Testing

@Suite struct SHA256DigestTests {
    @Test("SHA-256 reproduces the FIPS 180-2 / NIST example digests", arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256Digest(hashing: message.utf8).hexString == expected)
    }

    @Test("SHA-256 of one million 'a' matches the NIST long-message vector")
    func millionA() {
        let digest = SHA256Digest(hashing: repeatElement(UInt8(ascii: "a"), count: 1_000_000))
        #expect(digest.hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(digest.bytes.count == 32)
    }

    @Test("messages whose padding ends exactly at or just past a block boundary hash correctly")
    func paddingBoundaries() {
        // 55 bytes fit padding into one block; 56 bytes need a second one.
        #expect(SHA256Digest(hashing: repeatElement(UInt8(ascii: "a"), count: 55)).hexString
            == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(SHA256Digest(hashing: repeatElement(UInt8(ascii: "a"), count: 56)).hexString
            == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }
}

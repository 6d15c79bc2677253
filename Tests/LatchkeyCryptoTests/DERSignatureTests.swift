import Foundation
import LatchkeyCrypto
import Testing

/// ECDSA signatures in DER (the form WebAuthn uses), checked with RFC 6979's P-256 vector.
@Suite struct DERSignatureTests {
    /// RFC 6979, A.2.5: the P-256 public key and the SHA-256 signature of "sample".
    private static let key = (
        x: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
        y: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    private static let r = "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
    private static let s = "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
    /// The signature in DER: both integers have their high bit set, so each takes a zero byte.
    private static let der = "3046" + "022100" + r + "022100" + s

    private static func bytes(_ hex: String) -> Data {
        Data(stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        })
    }

    private func publicKey() throws -> P256PublicKey {
        try P256PublicKey(x: Self.bytes(Self.key.x), y: Self.bytes(Self.key.y))
    }

    @Test("RFC 6979's P-256 signature of 'sample' verifies in DER, and not over another message")
    func vectorVerifies() throws {
        let key = try publicKey()
        #expect(key.isValidDERSignature(Self.bytes(Self.der), for: Data("sample".utf8)))
        #expect(!key.isValidDERSignature(Self.bytes(Self.der), for: Data("samplf".utf8)))
        // The same signature in JWS's raw form verifies through the raw entry point only.
        #expect(key.isValidSignature(Self.bytes(Self.r + Self.s), for: Data("sample".utf8)))
        #expect(!key.isValidDERSignature(Self.bytes(Self.r + Self.s), for: Data("sample".utf8)))
    }

    @Test("encodings of the same numbers that are not strict DER are refused", arguments: [
        ("a long-form length", "308146" + "022100" + r + "022100" + s),
        ("a trailing byte", der + "00"),
        ("a superfluous leading zero", "3047" + "02220000" + r + "022100" + s),
        ("r read as a negative number", "3045" + "0220" + r + "022100" + s),
        ("an empty signature", ""),
        ("a signature longer than any P-256 DER", "3048" + "022100" + r + "022300" + "0000" + s),
    ])
    func nonDERRefused(_ label: String, _ hex: String) throws {
        #expect(!(try publicKey().isValidDERSignature(Self.bytes(hex), for: Data("sample".utf8))), "\(label)")
    }

    @Test("a signature a generated key makes verifies once converted to DER by the key's own numbers")
    func generatedKey() {
        let key = P256PrivateKey.generate()
        let message = Data("webauthn".utf8)
        let raw = key.signature(for: message)
        func integer(_ bytes: Data) -> Data {
            var trimmed = Data(bytes.drop { $0 == 0 })
            if trimmed.isEmpty || trimmed.first! & 0x80 != 0 { trimmed.insert(0, at: 0) }
            return Data([0x02, UInt8(trimmed.count)]) + trimmed
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        let der = Data([0x30, UInt8(body.count)]) + body
        #expect(key.publicKey.isValidDERSignature(der, for: message))
    }
}

import Foundation
import LatchkeyClient
import Testing

/// Public-key pinning, decided on real certificate chains that `openssl` made.
@Suite struct PublicKeyPinsTests {
    /// A backup key's pin: not in any chain below.
    static let backup = Data(repeating: 7, count: 32).base64EncodedString()

    /// Two CAs, each with leaves for auth.example.com: RSA (X.509 v1), ECDSA P-256 and
    /// Ed25519 (v3) under the first, one leaf under the second.
    static func chains() throws -> CertificateChains {
        let chains = try CertificateChains()
        do {
            try chains.makeCA("ca")
            try chains.makeCA("other-ca", keyOptions: ["-newkey", "rsa:2048"])
            try chains.makeLeaf("rsa", host: "auth.example.com", signedBy: "ca", keyAlgorithm: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], version3: false)
            try chains.makeLeaf("ec", host: "auth.example.com", signedBy: "ca", keyAlgorithm: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], version3: true)
            try chains.makeLeaf("ed", host: "auth.example.com", signedBy: "ca", keyAlgorithm: ["-algorithm", "ED25519"], version3: true)
            try chains.makeLeaf("rogue", host: "auth.example.com", signedBy: "other-ca", keyAlgorithm: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], version3: true)
            return chains
        } catch {
            chains.cleanUp()
            throw error
        }
    }

    @Test("the SDK's pin of each certificate is the one openssl computes (RSA v1, ECDSA and Ed25519 v3, a CA)")
    func pinsMatchOpenSSL() throws {
        let chains = try Self.chains()
        defer { chains.cleanUp() }
        for name in ["rsa", "ec", "ed", "ca", "other-ca"] {
            #expect(PublicKeyPins.pin(ofCertificate: try chains.der(name)) == (try chains.pin(name)), "\(name)")
        }
    }

    @Test("a chain carrying a pinned key is accepted, whether the leaf's or the CA's key is pinned")
    func pinnedChainAccepted() throws {
        let chains = try Self.chains()
        defer { chains.cleanUp() }
        let chain = [try chains.der("ec"), try chains.der("ca")]
        try PublicKeyPins(host: "auth.example.com", pins: [try chains.pin("ec"), Self.backup]).evaluate(chain: chain)
        try PublicKeyPins(host: "auth.example.com", pins: [Self.backup, try chains.pin("ca")]).evaluate(chain: chain)
        try PublicKeyPins(host: "auth.example.com", pins: [try chains.pin("ca"), Self.backup])
            .evaluate(chain: [try chains.der("rsa"), try chains.der("ca")])
    }

    @Test("a valid chain from another CA, with no pinned key, is refused with untrusted_server")
    func unpinnedChainRefused() throws {
        let chains = try Self.chains()
        defer { chains.cleanUp() }
        let pins = try PublicKeyPins(host: "auth.example.com", pins: [try chains.pin("ec"), try chains.pin("ca"), Self.backup])
        // Well formed and validly signed: `openssl verify` accepts it against its own CA.
        try chains.openssl(["verify", "-CAfile", "other-ca.pem", "rogue.pem"])
        #expect(throws: LatchkeyClientError(.untrustedServer, reasons: ["pin_mismatch"])) {
            try pins.evaluate(chain: [try chains.der("rogue"), try chains.der("other-ca")])
        }
        #expect(throws: LatchkeyClientError(.untrustedServer, reasons: ["no_certificate"])) { try pins.evaluate(chain: []) }
        let message = LatchkeyClientError(.untrustedServer).message(for: .en)
        #expect(message.contains("secure connection"))
    }

    @Test("bytes that are not a certificate give no pin and are never accepted")
    func malformedCertificates() throws {
        let chains = try Self.chains()
        defer { chains.cleanUp() }
        let der = try chains.der("ec")
        let pins = try PublicKeyPins(host: "auth.example.com", pins: [try chains.pin("ec"), Self.backup])
        for broken in [Data(), Data([0x30]), der.prefix(der.count / 2), Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]), der + Data([0])] {
            #expect(PublicKeyPins.pin(ofCertificate: broken) == nil)
            #expect(throws: LatchkeyClientError(.untrustedServer, reasons: ["pin_mismatch"])) { try pins.evaluate(chain: [broken]) }
        }
    }

    @Test("pins are two distinct SHA-256 digests at least (one a backup key), and apply to their host only")
    func configuration() throws {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["pins_need_backup"])) {
            try PublicKeyPins(host: "auth.example.com", pins: [Self.backup])
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["pins_need_backup"])) {
            try PublicKeyPins(host: "auth.example.com", pins: [Self.backup, Self.backup])
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["malformed_pin"])) {
            try PublicKeyPins(host: "auth.example.com", pins: [Self.backup, "c2hvcnQ="])
        }
        let pins = try PublicKeyPins(host: "Auth.Example.com", pins: [Self.backup, Data(count: 32).base64EncodedString()])
        #expect(pins.applies(toHost: "auth.example.COM"))
        #expect(!pins.applies(toHost: "api.example.com"))
        #expect(!pins.applies(toHost: "auth.example.com.evil.net"))
    }
}

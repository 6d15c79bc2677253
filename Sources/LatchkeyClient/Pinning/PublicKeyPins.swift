public import Foundation

/// SHA-256 pins of the issuer's public keys (its SubjectPublicKeyInfo, as HPKP and
/// OWASP's pinning guidance define them: `base64(SHA-256(SPKI DER))`), for the requests
/// of a password reset or sign-in that a network attacker with a misissued certificate
/// must not be able to read.
///
/// The decision is made here, portably: take each certificate of the chain the server
/// presented (and the system already found valid), extract its SPKI, hash, and accept
/// when any hash is pinned. The Apple adapter (``PinnedSessionDelegate``) only hands the
/// chain over from `SecTrust`.
///
/// At least two pins are required, one of them a backup key that is not in use yet:
/// an app pinned to one key locks every installed copy out the day that key must be
/// replaced. Pin the issuing CA's key as well as (or instead of) the server's to survive
/// routine certificate renewals; see docs/ios.md for rotating keys.
public struct PublicKeyPins: Sendable, Equatable {
    /// The host the pins apply to (lowercased); other hosts are not pinned.
    public let host: String
    /// The accepted SPKI SHA-256 digests, base64-encoded.
    public let pins: Set<String>

    /// Pins for `host`.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` with reason
    ///   `malformed_pin` (not base64 of 32 bytes) or `pins_need_backup` (fewer than two
    ///   distinct pins).
    public init(host: String, pins: [String]) throws {
        for pin in pins {
            guard let digest = Data(base64Encoded: pin), digest.count == 32 else {
                throw LatchkeyClientError(.invalidConfiguration, reasons: ["malformed_pin"])
            }
        }
        guard Set(pins).count >= 2 else { throw LatchkeyClientError(.invalidConfiguration, reasons: ["pins_need_backup"]) }
        self.host = host.lowercased()
        self.pins = Set(pins)
    }

    /// Whether connections to `host` are pinned (exact, case-insensitive match).
    public func applies(toHost host: String) -> Bool {
        host.lowercased() == self.host
    }

    /// Accepts `chain` — the DER certificates the server presented, leaf first — when the
    /// SPKI of any of them is pinned.
    ///
    /// - Throws: ``LatchkeyClientError`` `untrusted_server` with reason `pin_mismatch`
    ///   (no certificate carries a pinned key) or `no_certificate` (an empty chain).
    public func evaluate(chain: [Data]) throws {
        guard !chain.isEmpty else { throw LatchkeyClientError(.untrustedServer, reasons: ["no_certificate"]) }
        for certificate in chain {
            if let pin = Self.pin(ofCertificate: certificate), pins.contains(pin) { return }
        }
        throw LatchkeyClientError(.untrustedServer, reasons: ["pin_mismatch"])
    }

    /// The pin of a DER certificate's public key, as `openssl x509 -pubkey | openssl pkey
    /// -pubin -outform der | openssl dgst -sha256 -binary | base64` prints it; nil when
    /// the bytes are not a certificate.
    public static func pin(ofCertificate certificate: Data) -> String? {
        guard let spki = SubjectPublicKeyInfo.extract(fromCertificate: Array(certificate)) else { return nil }
        return Data(SHA256Digest(hashing: spki).bytes).base64EncodedString()
    }
}

import Foundation
package import LatchkeyCrypto

/// PKCE with the S256 method (RFC 7636), the only method Latchkey accepts.
package enum PKCEChallenge {
    /// Whether `challenge` has the form of an S256 challenge: the base64url SHA-256 of a
    /// verifier, 43 characters without padding.
    package static func isWellFormed(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && Base64URL.decode(challenge)?.count == 32
    }

    /// Whether `verifier` (43–128 characters of `A–Z a–z 0–9 - . _ ~`, RFC 7636 §4.1) hashes
    /// to `challenge`; compared in constant time.
    package static func verify(_ verifier: Redacted<String>, against challenge: String) -> Bool {
        let bytes = verifier.exposed.utf8
        guard (43...128).contains(bytes.count), bytes.allSatisfy(isUnreserved) else { return false }
        let computed = Base64URL.encode(SHA256.hash(Data(bytes)))
        return ConstantTime.equals(Data(computed.utf8), Data(challenge.utf8))
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

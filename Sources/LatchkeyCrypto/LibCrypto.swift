import COpenSSL
import Foundation

/// The one place that calls OpenSSL's libcrypto. Everything here is one-shot and holds no
/// handle, so no C type or pointer leaves a function body.
///
/// The digest and MAC functions can only fail if libcrypto itself is unusable (no default
/// provider, out of memory); the process cannot do anything safe without them, so they trap.
enum LibCrypto {
    /// The size of a SHA-256 digest in bytes.
    static let sha256Length = 32

    static func sha256(_ message: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: sha256Length)
        var written: UInt32 = 0
        let status = message.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &written, EVP_sha256(), nil)
        }
        precondition(status == 1 && written == sha256Length, "libcrypto could not compute SHA-256")
        return Data(digest)
    }

    static func hmacSHA256(key: Data, message: Data) -> Data {
        var mac = [UInt8](repeating: 0, count: sha256Length)
        var written: UInt32 = 0
        // Always pass a valid key pointer: what HMAC() does with a NULL key differs between versions.
        let keyBytes = key.isEmpty ? [0] : [UInt8](key)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            message.withUnsafeBytes { input in
                HMAC(
                    EVP_sha256(), keyBuffer.baseAddress, Int32(key.count),
                    input.bindMemory(to: UInt8.self).baseAddress, input.count, &mac, &written)
            }
        }
        precondition(result != nil && written == sha256Length, "libcrypto could not compute HMAC-SHA256")
        return Data(mac)
    }

    static func randomBytes(_ count: Int) -> Data {
        precondition(count >= 0 && count <= Int(Int32.max), "random byte count out of range")
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return Data() }
        let status = RAND_bytes(&bytes, Int32(count))
        precondition(status == 1, "the operating system's random number generator failed")
        return Data(bytes)
    }

    static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

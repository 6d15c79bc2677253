import Foundation
import LatchkeyCrypto

/// Decoding of the base64url members of a JWK.
enum KeyMember {
    /// The bytes of member `name`, or ``JOSEError/Code/invalidKey`` if it is missing or not
    /// base64url.
    static func decode(_ value: String?, _ name: String) throws -> Data {
        guard let value else { throw JOSEError(.invalidKey, "The JWK lacks its \(name) member.") }
        guard let bytes = Base64URL.decode(value), !bytes.isEmpty else {
            throw JOSEError(.invalidKey, "The JWK member \(name) is not base64url.")
        }
        return bytes
    }
}

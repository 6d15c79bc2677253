package import Foundation
import LatchkeyCrypto
import Synchronization

/// JWS compact serialization (RFC 7515 §7.1): signing and verification.
package enum JWS {
    /// The longest compact token accepted, in bytes (16 KiB); longer input is rejected
    /// before any decoding.
    package static let maximumCompactLength = 16 * 1024

    /// A token whose signature has been verified.
    package struct Verified: Sendable {
        /// The decoded protected header.
        package let header: JWSHeader
        /// The payload bytes.
        package let payload: Data
        /// The ID of the key that verified the signature.
        package let kid: String
    }

    /// Signs `payload` and returns `header.payload.signature`, each part base64url.
    ///
    /// The header's `alg` must be the key's algorithm (else
    /// ``JOSEError/Code/algorithmNotAllowed``); a missing `kid` is set to the key's.
    package static func sign(header: JWSHeader, payload: Data, key: SigningKey) throws -> String {
        guard header.alg == key.algorithm else {
            throw JOSEError(.algorithmNotAllowed, "The header alg does not match the signing key.")
        }
        var header = header
        header.kid = header.kid ?? key.kid
        let signingInput = try encodedHeader(header) + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(key.signature(for: Data(signingInput.utf8)))
    }

    /// The most encoded headers kept: a server signs with a few keys and token types at a time.
    private static let headerCacheLimit = 64
    private static let encodedHeaders = Mutex<[JWSHeader: String]>([:])

    /// `header` as JSON (sorted keys), base64url: encoded once per distinct header, since a
    /// server signs every token of a kind with the same one.
    private static func encodedHeader(_ header: JWSHeader) throws -> String {
        if let cached = encodedHeaders.withLock({ $0[header] }) { return cached }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded: String
        do {
            encoded = Base64URL.encode(try encoder.encode(header))
        } catch {
            throw JOSEError(.malformed, "The header could not be encoded.", detail: "\(error)")
        }
        encodedHeaders.withLock { headers in
            // Full only after many key rotations: start over, so the keys in use are kept.
            if headers.count >= headerCacheLimit { headers.removeAll() }
            headers[header] = encoded
        }
        return encoded
    }

    /// Verifies a compact token against `keys` and returns its header and payload.
    ///
    /// The key is the one whose ``VerificationKey/kid`` equals the header's `kid`; a token
    /// without `kid` is accepted only if `keys` holds exactly one key. Throws
    /// ``JOSEError`` with code `tooLarge`, `malformed`, `unsupportedAlgorithm` (`none`,
    /// `HS*`, anything unknown), `unsupportedCriticalHeader`, `unknownKey`,
    /// `algorithmNotAllowed` or `invalidSignature`.
    package static func verify(compact: String, keys: [VerificationKey]) throws -> Verified {
        guard compact.utf8.count <= maximumCompactLength else {
            throw JOSEError(.tooLarge, "The token exceeds \(maximumCompactLength) bytes.")
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JOSEError(.malformed, "A compact JWS has three parts.") }
        guard let headerJSON = Base64URL.decode(String(parts[0])),
            let payload = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2]))
        else { throw JOSEError(.malformed, "A token part is not base64url.") }

        let header = try decodeHeader(headerJSON)
        if header.crit != nil {
            throw JOSEError(.unsupportedCriticalHeader, "The token requires an extension Latchkey does not support.")
        }
        let key: VerificationKey
        if let kid = header.kid {
            guard let match = keys.first(where: { $0.kid == kid }) else {
                throw JOSEError(.unknownKey, "No key has the token's kid.")
            }
            key = match
        } else {
            guard keys.count == 1, let only = keys.first else {
                throw JOSEError(.unknownKey, "The token has no kid and the key set holds several keys.")
            }
            key = only
        }
        guard key.allowedAlgorithms.contains(header.alg) else {
            throw JOSEError(.algorithmNotAllowed, "The token's alg is not allowed for its key.")
        }
        let signingInput = Data(parts[0].utf8) + Data(".".utf8) + Data(parts[1].utf8)
        guard key.isValidSignature(signature, for: signingInput, algorithm: header.alg) else {
            throw JOSEError(.invalidSignature, "The token signature is not valid.")
        }
        return Verified(header: header, payload: payload, kid: key.kid)
    }

    /// Decodes the header, telling an unsupported `alg` apart from malformed JSON.
    private static func decodeHeader(_ json: Data) throws -> JWSHeader {
        struct AlgorithmOnly: Decodable { let alg: String }
        guard let named = try? JSONDecoder().decode(AlgorithmOnly.self, from: json) else {
            throw JOSEError(.malformed, "The token header is not a JSON object with an alg.")
        }
        guard JWSAlgorithm(rawValue: named.alg) != nil else {
            throw JOSEError(.unsupportedAlgorithm, "The token's alg is not supported.")
        }
        do {
            return try JSONDecoder().decode(JWSHeader.self, from: json)
        } catch {
            throw JOSEError(.malformed, "The token header has a member of the wrong type.")
        }
    }
}

import Foundation
import LatchkeyCrypto
import LatchkeyFuzzSupport
import LatchkeyJOSE

// Compact JWS verification (JWS.verify) against the RFC 7515 A.3 ES256 key and the RFC 8037
// Ed25519 key, and the claims of its payload (JWTClaims.decode). Properties: a token over
// 16 KiB is refused as too large; a verified token's kid is a key's, its alg one that key
// allows, and its payload the decoding of its second part; base64url decoding is canonical
// (each byte string has one encoding: decode then encode gives the text back); claims decode,
// encode and decode to the same claims.

private let keys: [VerificationKey] = [
    try! VerificationKey(jwk: JWK(
        kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", kid: "es256")),
    try! VerificationKey(jwk: JWK(kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "eddsa")),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let compact = FuzzInput(data, size).lossyText
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    for part in parts.prefix(3) {
        if let bytes = Base64URL.decode(part) {
            expect(Base64URL.encode(bytes) == part, "base64url has a second encoding of the same bytes")
        }
    }
    // Both keys, or only the one the token's kid may not name (a token without kid needs one key).
    for keySet in [keys, [keys[0]], [keys[1]]] {
        do {
            let verified = try JWS.verify(compact: compact, keys: keySet)
            expect(compact.utf8.count <= JWS.maximumCompactLength, "a token over the limit was verified")
            guard let key = keySet.first(where: { $0.kid == verified.kid }) else {
                expect(false, "verified by a key not in the set")
                return 0
            }
            expect(key.allowedAlgorithms.contains(verified.header.alg), "verified with an alg its key does not allow")
            expect(parts.count == 3 && Base64URL.encode(verified.payload) == parts[1], "the payload is not the second part")
        } catch let error as JOSEError {
            if compact.utf8.count > JWS.maximumCompactLength {
                expect(error.code == .tooLarge, "a token over the limit was refused as \(error.code), not too large")
            }
        } catch {
            expect(false, "JWS.verify threw \(type(of: error))")
        }
    }
    if parts.count == 3, let payload = Base64URL.decode(parts[1]), let claims = try? JWTClaims.decode(from: payload) {
        let encoded = try? JSONEncoder().encode(claims)
        expect(encoded.flatMap { try? JWTClaims.decode(from: $0) } == claims, "claims do not survive encode and decode")
    }
    return 0
}

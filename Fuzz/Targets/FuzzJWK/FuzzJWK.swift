import Foundation
import LatchkeyCrypto
import LatchkeyFuzzSupport
import LatchkeyJOSE

// JWK and JWK Set JSON (JWK's Decodable, VerificationKey(jwk:), RFC 7638 thumbprints).
// Properties: a decoded key encodes and decodes to the same key; its thumbprint is that of
// its public part and the same when computed twice; a public key built from it keeps its kid.

private func check(_ jwk: JWK) {
    let encoded = try? JSONEncoder().encode(jwk)
    expect(encoded.flatMap { try? JSONDecoder().decode(JWK.self, from: $0) } == jwk, "a JWK does not survive encode and decode")
    if let thumbprint = try? jwk.thumbprint() {
        expect((try? jwk.publicKey.thumbprint()) == thumbprint, "the public part has another thumbprint")
        expect(Base64URL.decode(thumbprint)?.count == 32, "a thumbprint is not a base64url SHA-256")
    }
    if let key = try? VerificationKey(jwk: jwk) {
        expect(jwk.kid == nil || key.kid == jwk.kid, "the verification key lost the JWK's kid")
        expect(!key.allowedAlgorithms.isEmpty, "a verification key allows no algorithm")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWK(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let json = FuzzInput(data, size).data
    if let set = try? JSONDecoder().decode(JWKSet.self, from: json) {
        set.keys.prefix(8).forEach(check)
        expect(set.publicKeys.keys.allSatisfy { $0.d == nil }, "a public key set holds a private member")
    } else if let jwk = try? JSONDecoder().decode(JWK.self, from: json) {
        check(jwk)
    }
    return 0
}

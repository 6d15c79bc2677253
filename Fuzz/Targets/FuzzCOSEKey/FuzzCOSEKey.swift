import Foundation
import LatchkeyFuzzSupport
import LatchkeyWebAuthn

// A credential's public key as a COSE_Key (COSEKey.parse(bytes:)). Properties: only
// WebAuthnError is thrown; an accepted key keeps the bytes it came from, and those bytes
// parse again to a key of the same algorithm.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCOSEKey(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).data
    do {
        let key = try COSEKey.parse(bytes: bytes)
        expect(key.encoded == bytes, "an accepted key does not keep its bytes")
        expect((try? COSEKey.parse(bytes: key.encoded))?.algorithm == key.algorithm, "a key's own bytes do not parse again")
    } catch is WebAuthnError {
    } catch {
        expect(false, "COSEKey.parse threw something other than WebAuthnError: \(error)")
    }
    return 0
}

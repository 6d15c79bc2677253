import Foundation
import LatchkeyFuzzSupport
import LatchkeyWebAuthn

// CBOR as WebAuthn's attestation objects and COSE keys carry it (CBOR.parse(bytes:limits:)).
// Properties: only WebAuthnError is thrown; nothing longer than the limit is accepted; a
// whole parse and a prefix parse agree, the prefix spanning every byte.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).data
    let whole: CBORValue?
    do {
        whole = try CBOR.parse(bytes: bytes)
    } catch is WebAuthnError {
        whole = nil
    } catch {
        expect(false, "CBOR.parse threw something other than WebAuthnError: \(error)")
        return 0
    }
    if whole != nil { expect(bytes.count <= CBORLimits.webAuthn.maximumLength, "CBOR over the length limit was parsed") }
    do {
        let (value, length) = try CBOR.parsePrefix(bytes: bytes)
        expect(length > 0 && length <= bytes.count, "a prefix outside the input")
        if let whole { expect(value == whole && length == bytes.count, "the prefix parse disagrees with the whole parse") }
    } catch is WebAuthnError {
        expect(whole == nil, "a whole parse succeeded where the prefix parse failed")
    } catch {
        expect(false, "CBOR.parsePrefix threw something other than WebAuthnError: \(error)")
    }
    return 0
}

import Foundation
import LatchkeyFuzzSupport
import LatchkeyWebAuthn

// clientDataJSON (WebAuthn §5.8.1, ClientData.parse(bytes:)). Properties: only WebAuthnError
// is thrown; an accepted document is valid UTF-8 JSON that Foundation reads too, with the same
// type, challenge and origin (no member was read twice, differently).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).data
    do {
        let client = try ClientData.parse(bytes: bytes)
        let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]
        expect(object != nil, "accepted client data Foundation cannot read")
        expect(object?["type"] as? String == client.type && object?["challenge"] as? String == client.challenge
            && object?["origin"] as? String == client.origin, "Foundation reads other values than the parser")
    } catch is WebAuthnError {
    } catch {
        expect(false, "ClientData.parse threw something other than WebAuthnError: \(error)")
    }
    return 0
}

import Foundation
import LatchkeyFuzzSupport
import LatchkeyWebAuthn

// Authenticator data (WebAuthn §6.1, AuthenticatorData.parse(bytes:)). Properties: only
// WebAuthnError is thrown; accepted data keeps its bytes, has a 32-byte RP ID hash, never BS
// without BE, attested credential data exactly when AT is set (with a 1 to 1023-byte id) and
// extensions exactly when ED is set.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthenticatorData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).data
    do {
        let parsed = try AuthenticatorData.parse(bytes: bytes)
        let flags = parsed.flags.rawValue
        expect(parsed.encoded == bytes && parsed.rpIDHash.count == 32, "accepted data lost its bytes or RP ID hash")
        expect(flags & AuthenticatorFlags.backedUp.rawValue == 0 || flags & AuthenticatorFlags.backupEligible.rawValue != 0,
            "BS accepted without BE")
        expect((parsed.attestedCredentialData != nil) == (flags & AuthenticatorFlags.attestedCredentialData.rawValue != 0),
            "attested credential data does not follow AT")
        expect((parsed.extensions != nil) == (flags & AuthenticatorFlags.extensionData.rawValue != 0), "extensions do not follow ED")
        if let credential = parsed.attestedCredentialData {
            expect((1...1023).contains(credential.credentialID.count) && credential.aaguid.count == 16,
                "a credential id or AAGUID of the wrong length")
        }
    } catch is WebAuthnError {
    } catch {
        expect(false, "AuthenticatorData.parse threw something other than WebAuthnError: \(error)")
    }
    return 0
}

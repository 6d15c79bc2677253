import LatchkeyCore
import LatchkeyFuzzSupport

// Email addresses as typed into a request (EmailAddress). Properties: an accepted address
// is at most 254 bytes of printable ASCII with exactly one @, lowercase, the same once
// normalised again (idempotent), and local part and domain rejoin into it; every refusal
// is invalid_email.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmailAddress(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).lossyText
    do {
        let address = try EmailAddress(input)
        let normalized = address.normalized
        expect(normalized.utf8.count <= EmailAddress.maximumLength, "an address over 254 bytes")
        expect(normalized.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "an address with a space, control or non-ASCII byte")
        expect(normalized.utf8.filter { $0 == UInt8(ascii: "@") }.count == 1, "an address without exactly one @")
        expect(normalized == normalized.lowercased(), "an address not in lowercase")
        expect(address.localPart + "@" + address.domain == normalized, "the parts do not rejoin into the address")
        expect((try? EmailAddress(normalized)) == address, "normalising again changed the address")
    } catch let error as LatchkeyError {
        expect(error.code == .invalidEmail, "EmailAddress threw \(error.code)")
    } catch {
        expect(false, "EmailAddress threw \(type(of: error))")
    }
    return 0
}

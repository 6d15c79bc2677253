import Foundation
import LatchkeyClient
import LatchkeyFuzzSupport

// The DER walk certificate pinning makes (SubjectPublicKeyInfo.extract, PublicKeyPins).
// Properties: the SPKI found lies within the certificate, is one SEQUENCE whose length
// covers it exactly; the pin is base64 of 32 bytes; an input that is not one DER SEQUENCE
// has no SPKI; a chain of such inputs is refused by pins it does not carry.

private let pins = try! PublicKeyPins(
    host: "auth.example.com",
    pins: [Data(repeating: 1, count: 32).base64EncodedString(), Data(repeating: 2, count: 32).base64EncodedString()])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSPKI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let pin = PublicKeyPins.pin(ofCertificate: input.data)
    guard let spki = SubjectPublicKeyInfo.extract(fromCertificate: input.bytes) else {
        expect(pin == nil, "a pin for a certificate with no SPKI")
        return 0
    }
    expect(spki.startIndex >= 0 && spki.endIndex <= input.bytes.count, "the SPKI lies outside the certificate")
    expect(spki.count >= 2 && spki.first == 0x30, "the SPKI is not a SEQUENCE")
    let first = spki[spki.startIndex + 1]
    let header = first < 0x80 ? 2 : 2 + Int(first & 0x7F)
    let length = first < 0x80 ? Int(first) : spki.dropFirst(2).prefix(Int(first & 0x7F)).reduce(0) { $0 << 8 | Int($1) }
    expect(header + length == spki.count, "the SPKI's length does not cover it exactly")
    expect(input.bytes.first == 0x30, "a certificate that is not a SEQUENCE")
    expect(pin.flatMap { Data(base64Encoded: $0) }?.count == 32, "a pin that is not base64 of a SHA-256")
    expect((try? pins.evaluate(chain: [input.data])) == nil, "a chain without a pinned key was accepted")
    return 0
}

import Foundation
import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The application/x-www-form-urlencoded decoder (FormParameters: OAuth bodies and query
// strings) and its checks. Properties: the byte and text entry points agree; decoding what
// is re-encoded from a decoded list gives the same list; FormParameters accepts at most 32
// parameters, none holding a control character; a value read is within the length asked
// for; a body read through HTTPRequest is the same as the bytes decoded.

/// `text` percent-encoded but for the unreserved characters (RFC 3986 §2.3).
private func encoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
        }
    }
    return result
}

private func same(_ a: [(name: String, value: String)]?, _ b: [(name: String, value: String)]?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a.elementsEqual(b) { $0.name.utf8.elementsEqual($1.name.utf8) && $0.value.utf8.elementsEqual($1.value.utf8) }
    default: false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormParameters(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let decoded = input.bytes.withUnsafeBytes { FormParameters.decode(urlencoded: $0) }
    if let text = input.text {
        expect(same(FormParameters.decode(urlencoded: Substring(text)), decoded), "text and bytes decode differently")
    }
    guard let decoded else { return 0 }

    let reencoded = decoded.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
    expect(same(FormParameters.decode(urlencoded: Substring(reencoded)), decoded), "decode(encode(decoded)) differs")

    let request = HTTPRequest(
        method: "POST", path: "/oauth/token",
        headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")]), body: input.data)
    let viaRequest = try? FormParameters(body: request)
    do {
        let parameters = try FormParameters(decoded)
        expect(decoded.count <= FormParameters.maximumCount, "more than the maximum count was accepted")
        expect(
            !decoded.contains { $0.name.containsControlCharacter || $0.value.containsControlCharacter },
            "a control character was accepted")
        let names = Set(decoded.map(\.name))
        expect((viaRequest != nil) == (names.count == decoded.count), "a body with repeats was read, or one without refused")
        for name in names.prefix(4) {
            if let value = try? parameters.optional(name, maxLength: 8) {
                expect(value.utf8.count <= 8 && !value.isEmpty, "optional() returned a value over its length")
            }
            if let value = try? parameters.required(name, maxLength: 64) {
                expect(decoded.contains { $0.name == name && $0.value == value }, "required() returned a value not sent")
            }
        }
    } catch let error as LatchkeyError {
        expect(error.code == .invalidRequest, "FormParameters threw \(error.code)")
        expect(viaRequest == nil, "a body FormParameters refuses was read through the request")
    } catch {
        expect(false, "FormParameters threw \(type(of: error))")
    }
    return 0
}

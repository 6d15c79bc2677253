import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The Cookie header (HTTPRequest.cookie(_:)); each input line is one Cookie field.
// Properties, in bytes (a header is bytes to a browser, not Swift characters): a value is found
// only when its name is sent in a field of at most 8 KiB; the value is visible ASCII without
// `"`, `,`, `;` or `\`, starts and ends with no space, and its bytes were sent.

private let names = ["directus_refresh_token", "directus_session_token", "latchkey_session", "a"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).lines()
    let request = HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders(fields.map { ("Cookie", $0) }))
    for name in names {
        guard let value = request.cookie(name) else { continue }
        let bytes = Array(value.utf8)
        expect(bytes.allSatisfy { (0x21...0x7E).contains($0) && !Array(#"",;\"#.utf8).contains($0) },
               "a cookie value holds a byte outside RFC 6265's cookie-octet")
        let sent = fields.map { Array($0.utf8) }.filter { $0.count <= 8192 && $0.contains(Array(name.utf8)) }
        expect(!sent.isEmpty, "a cookie was found in no field short enough to read, or its name was not sent")
        expect(sent.contains { $0.contains(bytes) }, "a cookie value that was not sent")
    }
    return 0
}

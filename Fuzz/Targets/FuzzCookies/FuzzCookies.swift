import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The Cookie header (HTTPRequest.cookie(_:)); each input line is one Cookie field.
// Properties: a value is found only when its name is sent exactly once over the fields of at
// most 8 KiB; the value holds no `;`, starts and ends with no space, and was sent.

private let names = ["directus_refresh_token", "directus_session_token", "latchkey_session", "a"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).lines()
    let request = HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders(fields.map { ("Cookie", $0) }))
    for name in names {
        guard let value = request.cookie(name) else { continue }
        expect(!value.contains(";"), "a cookie value holds a ;")
        expect(value.first != " " && value.last != " ", "a cookie value keeps its surrounding spaces")
        let sent = fields.filter { $0.utf8.count <= 8192 && $0.contains(name) }
        expect(!sent.isEmpty, "a cookie was found in no field short enough to read, or its name was not sent")
        expect(sent.contains { $0.contains(value) }, "a cookie value that was not sent")
    }
    return 0
}

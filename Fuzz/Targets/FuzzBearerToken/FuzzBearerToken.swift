import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The bearer token of a request (HTTPRequest.bearerToken(): RFC 6750 §2.1 header, §2.2 form
// body). The input's first line is the Authorization field, the rest the form body.
// Properties: a token comes from one place only; from the header it is what follows the
// scheme; from the body it is within the 16 KiB limit; every refusal is
// authentication_required or invalid_request.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBearerToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzInput(data, size).lines(limit: 2)
    let authorization = lines[0]
    let body = lines.count > 1 ? lines[1] : ""
    var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")])
    if !authorization.isEmpty { headers.add("Authorization", authorization) }
    let request = HTTPRequest(method: "POST", path: "/users/me", headers: headers, body: Data(body.utf8))
    do {
        let token = try request.bearerToken().exposed
        let scheme = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if !authorization.isEmpty, scheme.lowercased() == "bearer" {
            expect(authorization.hasSuffix(token), "the header's token is not what follows the scheme")
        } else {
            expect(token.utf8.count <= HTTPRequest.maximumBearerTokenLength, "a body token over the limit")
            expect(!token.isEmpty, "an empty body token was accepted")
        }
    } catch let error as LatchkeyError {
        expect(error.code == .authenticationRequired || error.code == .invalidRequest, "bearerToken() threw \(error.code)")
    } catch {
        expect(false, "bearerToken() threw \(type(of: error))")
    }
    return 0
}

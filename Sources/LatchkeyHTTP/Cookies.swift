import LatchkeyCore
import Foundation

extension HTTPRequest {
    /// The value of the cookie `name` from the `Cookie` header; nil when absent or sent
    /// more than once (a cookie planted by a sibling domain must not shadow ours).
    package func cookie(_ name: String) -> String? {
        var found: [String] = []
        for header in headers.values("Cookie") where header.utf8.count <= 8192 {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                found.append(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return found.count == 1 ? found[0] : nil
    }
}

extension HTTPResponse {
    /// Adds a `Set-Cookie` for `name=value` that scripts cannot read (`HttpOnly`), limited to
    /// `path`, with `SameSite` as given, `Secure` when `secure`, and expiring after `maxAge`
    /// seconds. `value` must be a cookie-safe token (base64url).
    package mutating func setCookie(
        _ name: String, _ value: String, path: String, sameSite: String, secure: Bool, maxAge: Int
    ) {
        var cookie = "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)"
        if secure { cookie += "; Secure" }
        headers.add("Set-Cookie", cookie)
    }
}

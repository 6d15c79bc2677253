import LatchkeyCore

extension HTTPRequest {
    /// The value of the cookie `name` from the `Cookie` header; nil when absent, when sent
    /// more than once (a cookie planted by a sibling domain must not shadow ours), or when its
    /// value is not a plain RFC 6265 cookie value (visible ASCII without `"`, `,`, `;`, `\`).
    ///
    /// The header is read as bytes: pairs end at each `;`, a name ends at its first `=`, and
    /// only spaces and tabs around a name or value are dropped. Fields longer than 8 KiB are
    /// not read. A combining mark after a `;` or `=` therefore cannot join it into another
    /// character and hide a pair, as it would if the header were split by Swift characters.
    package func cookie(_ name: String) -> String? {
        let wanted = Array(name.utf8)
        var found: [String?] = []
        for header in headers.values("Cookie") where header.utf8.count <= 8192 {
            for pair in Array(header.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")),
                      pair[..<equals].trimmingCookieSpace().elementsEqual(wanted)
                else { continue }
                let value = pair[(equals + 1)...].trimmingCookieSpace()
                found.append(value.allSatisfy(Self.isCookieOctet) ? String(decoding: value, as: UTF8.self) : nil)
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// RFC 6265's cookie-octet: visible ASCII but `"`, `,`, `;` and `\`.
    private static func isCookieOctet(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) && byte != 0x22 && byte != 0x2C && byte != 0x3B && byte != 0x5C
    }
}

extension ArraySlice<UInt8> {
    /// The slice without the spaces and tabs at either end.
    fileprivate func trimmingCookieSpace() -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return self[first...last]
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

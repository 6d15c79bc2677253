import LatchkeyCore
/// The request target of a request line (`/path?query`), split into the raw path and
/// the decoded query parameters.
///
/// The query is decoded as `application/x-www-form-urlencoded` (`+` is a space, `%XX`
/// a byte, the result must be UTF-8). Parameters keep their order and repeats, so a
/// route can reject a duplicated parameter.
package struct RequestTarget: Sendable {
    /// The path, not percent-decoded, e.g. `/oauth/authorize`.
    package let path: String
    /// The query parameters in order; a parameter without `=` has an empty value.
    package let query: [(name: String, value: String)]

    /// Splits `rawTarget`; nil when the query is not validly encoded.
    package init?(_ rawTarget: String) {
        var target = Substring(rawTarget)
        // Byte searches: the characters looked for are ASCII, and UTF-8 indices are String indices.
        if let fragment = target.utf8.firstIndex(of: UInt8(ascii: "#")) {
            target = target[..<fragment]
        }
        // Absolute form (`http://host/path`), which HTTP/1.1 servers must accept; the usual
        // origin form starts with `/` and skips the search.
        if target.utf8.first != UInt8(ascii: "/"), let schemeEnd = target.firstRange(of: "://"),
            target[..<schemeEnd.lowerBound].allSatisfy(\.isLetter)
        {
            let afterScheme = target[schemeEnd.upperBound...]
            target = afterScheme.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }.map { afterScheme[$0...] } ?? ""
        }
        let pathEnd = target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex
        let path = target[..<pathEnd]
        self.path = path.isEmpty ? "/" : String(path)

        if pathEnd < target.endIndex {
            // One byte past the `?`: a `Character` step would also skip a combining mark after it.
            guard let query = FormParameters.decode(urlencoded: target[target.utf8.index(after: pathEnd)...]) else { return nil }
            self.query = query
        } else {
            self.query = []
        }
    }
}

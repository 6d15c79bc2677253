/// The request target of a request line (`/path?query`), split into the raw path and
/// the decoded query parameters.
///
/// The query is decoded as `application/x-www-form-urlencoded` (`+` is a space, `%XX`
/// a byte, the result must be UTF-8). Parameters keep their order and repeats, so a
/// route can reject a duplicated parameter.
struct RequestTarget: Sendable {
    /// The path, not percent-decoded, e.g. `/oauth/authorize`.
    let path: String
    /// The query parameters in order; a parameter without `=` has an empty value.
    let query: [(name: String, value: String)]

    /// Splits `rawTarget`; nil when the query is not validly encoded.
    init?(_ rawTarget: String) {
        var target = Substring(rawTarget)
        if let fragment = target.firstIndex(of: "#") {
            target = target[..<fragment]
        }
        // Absolute form (`http://host/path`), which HTTP/1.1 servers must accept.
        if let schemeEnd = target.firstRange(of: "://"), target[..<schemeEnd.lowerBound].allSatisfy(\.isLetter) {
            let afterScheme = target[schemeEnd.upperBound...]
            target = afterScheme.firstIndex { $0 == "/" || $0 == "?" }.map { afterScheme[$0...] } ?? ""
        }
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        let path = target[..<pathEnd]
        self.path = path.isEmpty ? "/" : String(path)

        if pathEnd < target.endIndex {
            guard let query = Self.formParameters(target[target.index(after: pathEnd)...]) else { return nil }
            self.query = query
        } else {
            self.query = []
        }
    }

    /// `text` decoded as `application/x-www-form-urlencoded`, in order with repeats; nil when
    /// it is not validly encoded.
    static func formParameters(_ text: Substring) -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=") ?? pair.endIndex
            guard let name = formDecoded(pair[..<equals]),
                  let value = formDecoded(equals < pair.endIndex ? pair[pair.index(after: equals)...] : "")
            else { return nil }
            parameters.append((name: name, value: value))
        }
        return parameters
    }

    private static func formDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = text.utf8.makeIterator()
        while let byte = input.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = input.next().flatMap(hexValue), let low = input.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

import Foundation
package import LatchkeyCrypto

/// The parameters of an OAuth request — an `application/x-www-form-urlencoded` body or a
/// query string — read with the checks OAuth requires: at most ``maximumCount`` parameters,
/// none repeated (RFC 6749 §3.1, §3.2), each value of bounded length. Every problem is an
/// `invalid_request` naming the parameter, never its value.
package struct FormParameters {
    /// The most parameters a request may carry.
    package static let maximumCount = 32

    private let values: [String: String]
    private let repeated: Set<String>

    /// Checks `parameters` (decoded, in order, with repeats): at most ``maximumCount``, and
    /// no control character in any name or value (`invalid_request` at once, before anything
    /// is looked up). A repeated parameter is refused when it is read (or found by
    /// ``checkNoneRepeated()``), so the caller decides which repeat is fatal before which (an
    /// authorization request's redirect URI must be trusted first).
    package init(_ parameters: [(name: String, value: String)]) throws {
        guard parameters.count <= Self.maximumCount else {
            throw LatchkeyError(.invalidRequest, "The request has too many parameters.")
        }
        if let bad = parameters.first(where: { $0.name.containsControlCharacter || $0.value.containsControlCharacter }) {
            throw LatchkeyError(.invalidRequest, "The parameter '\(Self.quotable(bad.name))' contains a control character.")
        }
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        for (name, value) in parameters where values.updateValue(value, forKey: name) != nil {
            repeated.insert(name)
        }
        self.values = values
        self.repeated = repeated
    }

    /// `text` decoded as `application/x-www-form-urlencoded` (`+` is a space, `%XX` a byte,
    /// the result must be UTF-8), in order with repeats; nil when it is not validly encoded.
    package static func decode(urlencoded text: Substring) -> [(name: String, value: String)]? {
        var text = text
        return text.withUTF8 { decode(urlencoded: UnsafeRawBufferPointer($0)) }
    }

    /// `bytes` decoded as the text of the function above is. The body is read as bytes:
    /// `&` and `=` split it wherever they are (a split by `Character` would keep one followed
    /// by a combining mark, which is not how form encoding is defined), and each name and value
    /// must decode to UTF-8 on its own.
    package static func decode(urlencoded bytes: UnsafeRawBufferPointer) -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            var equals: Int?
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                let nameEnd = equals ?? end
                guard let name = formDecoded(bytes[start..<nameEnd]),
                    let value = formDecoded(bytes[min(nameEnd + 1, end)..<end])
                else { return nil }
                parameters.append((name: name, value: value))
            }
            start = end + 1
        }
        return parameters
    }

    private static func formDecoded(_ text: Slice<UnsafeRawBufferPointer>) -> String? {
        // Most names and values have nothing to decode: validated as they are.
        guard text.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(validating: text, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var input = text.makeIterator()
        while let byte = input.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = input.next()?.hexDigitValue, let low = input.next()?.hexDigitValue else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Throws `invalid_request` if any parameter was repeated.
    package func checkNoneRepeated() throws {
        if let name = repeated.first { throw Self.repeatedError(name) }
    }

    /// Whether the parameter is present (possibly empty).
    package func contains(_ name: String) -> Bool {
        values[name] != nil
    }

    /// An optional parameter of at most `maxLength` UTF-8 bytes; an empty value counts as absent.
    package func optional(_ name: String, maxLength: Int) throws -> String? {
        guard !repeated.contains(name) else { throw Self.repeatedError(name) }
        guard let value = values[name], !value.isEmpty else { return nil }
        guard value.utf8.count <= maxLength else {
            throw LatchkeyError(.invalidRequest, "The parameter '\(name)' is too long.")
        }
        return value
    }

    /// A required parameter of at most `maxLength` UTF-8 bytes.
    package func required(_ name: String, maxLength: Int) throws -> String {
        guard let value = try optional(name, maxLength: maxLength) else {
            throw LatchkeyError(.invalidRequest, "The parameter '\(name)' is required.")
        }
        return value
    }

    /// A required secret parameter; its value never appears in an error.
    package func secret(_ name: String, maxLength: Int) throws -> Redacted<String> {
        Redacted(try required(name, maxLength: maxLength))
    }

    /// An optional secret parameter.
    package func optionalSecret(_ name: String, maxLength: Int) throws -> Redacted<String>? {
        try optional(name, maxLength: maxLength).map(Redacted.init)
    }

    private static func repeatedError(_ name: String) -> LatchkeyError {
        LatchkeyError(.invalidRequest, "The parameter '\(quotable(name))' is repeated.")
    }

    /// `name` if it is short printable ASCII, so an error can quote it without echoing junk.
    private static func quotable(_ name: String) -> String {
        name.utf8.count <= 40 && name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x27 }) ? name : "…"
    }
}

extension String {
    /// Whether the text holds a C0 control character (U+0000–U+001F: NUL, tab, line breaks…)
    /// or DEL. No text field of any request may: C strings end at a NUL (libpq would see a
    /// shorter value than a limiter key made from the whole), and line breaks forge log lines
    /// and headers.
    package var containsControlCharacter: Bool {
        var text = self
        return text.withUTF8 { bytes in bytes.contains { $0 < 0x20 || $0 == 0x7F } }
    }
}

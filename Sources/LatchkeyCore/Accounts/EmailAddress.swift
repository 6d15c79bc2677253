import Foundation

/// A syntactically valid email address in normalised form: the form Latchkey stores,
/// looks accounts up by and sends mail to.
///
/// The accepted syntax is the HTML5 "valid e-mail address" (what a browser's
/// `<input type=email>` accepts), made stricter where real mail systems are:
/// - local part: 1–64 of `A–Z a–z 0–9 . ! # $ % & ' * + / = ? ^ _ ` { | } ~ -`, with no
///   leading, trailing or doubled dot (RFC 5321 dot-string); no quoted local parts;
/// - domain: at least two dot-separated labels of 1–63 ASCII letters, digits and inner
///   hyphens, with a top-level label that is not all digits; no IP literals and no
///   internationalised (non-ASCII) domains, since IDNA is not supported;
/// - at most 254 bytes in all.
///
/// Normalisation lowercases the whole address. RFC 5321 allows a mail server to treat
/// local parts case-sensitively, but practically none do, and one account per mailbox
/// matters more: `Jane@Example.com` and `jane@example.com` must not become two accounts
/// (or let one person trigger resets for the other). Nothing else is rewritten: `+tags`
/// and dots are kept, since their meaning is up to each mail provider.
package struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The longest address accepted, in bytes (RFC 5321 path limit minus the brackets).
    package static let maximumLength = 254

    /// The lowercased part before the `@`.
    package let localPart: String
    /// The lowercased domain after the `@`.
    package let domain: String
    /// The normalised address, `local@domain`, all lowercase.
    package let normalized: String

    /// Validates and normalises an address typed by a person: surrounding whitespace is
    /// trimmed, then the syntax above is checked and the address lowercased.
    ///
    /// - Throws: ``LatchkeyError`` with code `invalid_email` and a message saying what is
    ///   wrong; the message never repeats the input.
    package init(_ input: String) throws {
        let trimmed = Self.trimmingWhitespace(input)
        guard !trimmed.isEmpty else { throw Self.invalid("Enter an email address.") }
        guard trimmed.utf8.count <= Self.maximumLength else {
            throw Self.invalid("The email address is longer than \(Self.maximumLength) characters.")
        }
        // One pass over the bytes, lowercased in place (the address is ASCII by then).
        var bytes = Array(trimmed.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            throw Self.invalid("The email address may contain only ASCII letters, digits and punctuation.")
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Self.invalid("The email address must not contain spaces, line breaks or control characters.")
        }
        var at: Int?
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "@"):
                guard at == nil else { throw Self.invalid("The email address must contain exactly one @.") }
                at = index
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes[index] |= 0x20
            default:
                break
            }
        }
        guard let at else { throw Self.invalid("The email address must contain exactly one @.") }
        try Self.validateLocalPart(bytes[..<at])
        try Self.validateDomain(bytes[(at + 1)...])
        localPart = String(decoding: bytes[..<at], as: UTF8.self)
        domain = String(decoding: bytes[(at + 1)...], as: UTF8.self)
        normalized = String(decoding: bytes, as: UTF8.self)
    }

    /// `input` without surrounding whitespace and line breaks. An address that starts and
    /// ends with a visible ASCII character (every stored one) is returned as it is, without
    /// Foundation's Unicode-aware trimming.
    private static func trimmingWhitespace(_ input: String) -> String {
        let isVisibleASCII = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
        if let first = input.utf8.first, let last = input.utf8.last, isVisibleASCII(first), isVisibleASCII(last) {
            return input
        }
        return input.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A masked form to show a person which address a message went to without
    /// disclosing it: the first character of the local part, `***`, then `@domain`
    /// (e.g. `j***@example.com`).
    package var hint: String { "\(localPart.prefix(1))***@\(domain)" }

    /// The ``hint``, so that an address interpolated into a log line or error is masked.
    package var description: String { hint }

    private static let localPartSymbols: [UInt8] = Array("!#$%&'*+/=?^_`{|}~-.".utf8)

    private static func validateLocalPart(_ localPart: ArraySlice<UInt8>) throws {
        guard !localPart.isEmpty else { throw invalid("The email address needs a name before the @.") }
        guard localPart.count <= 64 else {
            throw invalid("The part before the @ is longer than 64 characters.")
        }
        guard localPart.allSatisfy({ isAlphanumeric($0) || localPartSymbols.contains($0) }) else {
            throw invalid("The part before the @ contains a character that is not allowed.")
        }
        let dot = UInt8(ascii: ".")
        guard localPart.first != dot, localPart.last != dot,
            !zip(localPart, localPart.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else {
            throw invalid("The part before the @ must not start or end with a dot or contain two dots in a row.")
        }
    }

    /// Checks the labels in one pass over the bytes, without splitting them into an array
    /// (a reset request validates one address; the split was a third of its validation).
    private static func validateDomain(_ domain: ArraySlice<UInt8>) throws {
        guard !domain.isEmpty else { throw invalid("The email address needs a domain after the @.") }
        let dot = UInt8(ascii: ".")
        guard domain.contains(dot) else {
            throw invalid("The domain of the email address must contain a dot.")
        }
        let hyphen = UInt8(ascii: "-")
        var labelStart = domain.startIndex
        while true {
            let labelEnd = domain[labelStart...].firstIndex(of: dot) ?? domain.endIndex
            let label = domain[labelStart..<labelEnd]
            guard (1...63).contains(label.count), label.allSatisfy({ isAlphanumeric($0) || $0 == hyphen }),
                label.first != hyphen, label.last != hyphen
            else { throw invalid("The domain of the email address is not valid.") }
            guard labelEnd < domain.endIndex else {
                // The top-level label.
                guard !label.allSatisfy({ isDigit($0) }) else {
                    throw invalid("The domain of the email address is not valid.")
                }
                return
            }
            labelStart = labelEnd + 1
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func invalid(_ message: String) -> LatchkeyError {
        LatchkeyError(.invalidEmail, message)
    }
}

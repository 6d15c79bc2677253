import Foundation

/// A local check of an email address before it is sent, so a typo is caught without a
/// round trip. It mirrors the server's syntax (HTML5 "valid e-mail address" with RFC 5321
/// limits); the server stays the judge.
public enum EmailSyntax {
    /// Whether `input`, with surrounding whitespace trimmed, looks like an address the
    /// server accepts: one `@`; a local part of 1–64 allowed characters without a leading,
    /// trailing or doubled dot; a domain of at least two labels of 1–63 ASCII letters,
    /// digits and inner hyphens whose last label is not all digits; at most 254 bytes.
    public static func isPlausible(_ input: String) -> Bool {
        let address = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty, address.utf8.count <= 254,
            address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return isLocalPart(parts[0]) && isDomain(parts[1])
    }

    private static let localPartSymbols = Set("!#$%&'*+/=?^_`{|}~-.".utf8)

    private static func isLocalPart(_ local: Substring) -> Bool {
        (1...64).contains(local.utf8.count)
            && local.utf8.allSatisfy { isAlphanumeric($0) || localPartSymbols.contains($0) }
            && !local.hasPrefix(".") && !local.hasSuffix(".") && !local.contains("..")
    }

    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last,
            !topLevel.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count)
                && label.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
                && !label.hasPrefix("-") && !label.hasSuffix("-")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

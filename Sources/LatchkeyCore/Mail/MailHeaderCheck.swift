/// The checks that keep header injection out of every message we write: a value that
/// reaches a header or the SMTP envelope passes one of these first.
package enum MailHeaderCheck {
    /// Throws `invalid_mail_header` when `value` contains a control character (CR, LF, NUL,
    /// DEL, …) or a Unicode line or paragraph separator.
    package static func text(_ value: String, what: String) throws {
        let unsafe = value.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        if unsafe {
            throw LatchkeyError(.invalidMailHeader, "The \(what) contains a line break or control character.")
        }
    }

    /// Throws `invalid_mail_header` unless `address` is a plain ASCII `local@domain` address
    /// of at most 254 characters, with no spaces, quotes, angle brackets, commas or other
    /// characters that could add a second recipient or header. The address itself is not
    /// put in the error (it is personal data).
    package static func address(_ address: String, what: String) throws {
        let forbidden: Set<Unicode.Scalar> = ["<", ">", "(", ")", "[", "]", "\\", ",", ";", ":", "\""]
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard address.utf8.count <= 254,
              address.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && !forbidden.contains($0) }),
              parts.count == 2, let local = parts.first, let domain = parts.last,
              !local.isEmpty, local.utf8.count <= 64,
              !domain.isEmpty, domain.first != ".", domain.last != ".", !domain.contains("..")
        else {
            throw LatchkeyError(.invalidMailHeader, "The \(what) is not a plain email address.")
        }
    }

    /// Throws `invalid_mail_header` unless `token` is 1–128 characters of `A–Z a–z 0–9 . _ -`
    /// not starting with a dot: safe as a Message-ID local part and as a file name.
    package static func token(_ token: String, what: String) throws {
        let allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
        guard (1...128).contains(token.utf8.count), token.first != ".", token.allSatisfy({ allowed.contains($0) }) else {
            throw LatchkeyError(.invalidMailHeader, "The \(what) may contain only letters, digits, '.', '_' and '-'.")
        }
    }
}

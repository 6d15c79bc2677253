import Foundation

/// The password rules the app can check before sending a new password: the server's
/// length range and its "no email in the password" rule. The server's strength estimate
/// (`too_weak`) is checked only by the server.
public enum PasswordRules {
    /// One broken rule, with the same code the server sends in `reasons`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The server's code, e.g. `too_short`.
        public let code: String
        private init(_ code: String) { self.code = code }
        /// The ``code``.
        public var description: String { code }

        /// The rule as a sentence for a person, in `language` ("Use at least 8 characters."):
        /// what a reset screen shows while the password is typed.
        public func message(for language: ClientLanguage) -> String {
            ClientErrorText.reason(code, in: language) ?? code
        }

        /// Every rule the app checks, in the order ``PasswordRules/check(_:email:)`` reports them.
        public static let all: [Reason] = [.tooShort, .tooLong, .containsEmail]

        /// Fewer than ``PasswordRules/minimumLength`` characters.
        public static let tooShort = Reason("too_short")
        /// More than ``PasswordRules/maximumLength`` characters.
        public static let tooLong = Reason("too_long")
        /// Contains the local part (before the `@`) of the account's email address.
        public static let containsEmail = Reason("contains_email")
    }

    /// The fewest characters (grapheme clusters after NFC) the server accepts.
    public static let minimumLength = 8
    /// The most characters (grapheme clusters after NFC) the server accepts.
    public static let maximumLength = 128

    /// Every rule `password` breaks, in the order too short/too long, contains email;
    /// empty if it passes the local checks. The password is measured in Unicode NFC, as
    /// the server measures it. The email rule applies when `email`'s local part has at
    /// least 3 characters and is compared case-insensitively.
    public static func check(_ password: ClientSecret, email: String?) -> [Reason] {
        let candidate = password.exposed.precomposedStringWithCanonicalMapping
        var reasons = [Reason]()
        if candidate.count < minimumLength { reasons.append(.tooShort) }
        if candidate.count > maximumLength { reasons.append(.tooLong) }
        if let email, let at = email.lastIndex(of: "@") {
            let localPart = email[..<at].trimmingCharacters(in: .whitespaces).lowercased()
            if localPart.count >= 3, candidate.lowercased().contains(localPart) {
                reasons.append(.containsEmail)
            }
        }
        return reasons
    }
}

import Foundation
package import LatchkeyCrypto

/// The rules a new password must meet: a length range, a minimum strength score (zxcvbn's scale),
/// and not containing the account's email name.
///
/// Passwords are normalised to Unicode NFC before they are measured and before they are
/// hashed (``normalized(_:)``), so the same password typed on different keyboards, which
/// may produce composed or decomposed accents, is the same password. Sign-in must hash the
/// ``normalized(_:)`` form too.
package struct PasswordPolicy: Sendable {
    /// One way a password fails the policy.
    package enum Violation: Sendable, Hashable {
        /// Fewer characters than the policy's minimum.
        case tooShort(minimum: Int)
        /// More characters than the policy's maximum.
        case tooLong(maximum: Int)
        /// zxcvbn scored the password below the policy's minimum score.
        case tooWeak(score: Int)
        /// The password contains the local part of the account's email address.
        case containsEmail

        /// A stable code for API responses: `too_short`, `too_long`, `too_weak` or
        /// `contains_email`.
        package var code: String {
            switch self {
            case .tooShort: "too_short"
            case .tooLong: "too_long"
            case .tooWeak: "too_weak"
            case .containsEmail: "contains_email"
            }
        }

        /// A sentence telling a person what to change.
        package var message: String {
            switch self {
            case .tooShort(let minimum): "Use at least \(minimum) characters."
            case .tooLong(let maximum): "Use at most \(maximum) characters."
            case .tooWeak: "Choose a password that is harder to guess."
            case .containsEmail: "Do not include your email address in the password."
            }
        }
    }

    /// The fewest characters (grapheme clusters, after NFC) a password may have.
    package let minimumLength: Int
    /// The most characters (grapheme clusters, after NFC) a password may have.
    package let maximumLength: Int
    /// The lowest zxcvbn score (0–4) accepted.
    package let minimumScore: Int

    private let estimator: any PasswordStrengthEstimator

    /// A policy with the given bounds, scoring strength with `estimator`.
    ///
    /// - Throws: ``LatchkeyError`` with code `invalid_configuration` unless
    ///   1 ≤ `minimumLength` ≤ `maximumLength` ≤ 4096 and 0 ≤ `minimumScore` ≤ 4.
    package init(minimumLength: Int, maximumLength: Int, minimumScore: Int, estimator: any PasswordStrengthEstimator) throws {
        guard minimumLength >= 1, minimumLength <= maximumLength, maximumLength <= 4096 else {
            throw LatchkeyError(
                .invalidConfiguration,
                "Password lengths must satisfy 1 ≤ minimum length ≤ maximum length ≤ 4096.")
        }
        guard (0...4).contains(minimumScore) else {
            throw LatchkeyError(.invalidConfiguration, "The minimum password score must be between 0 and 4.")
        }
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.minimumScore = minimumScore
        self.estimator = estimator
    }

    /// `password` in Unicode Normalization Form C: the form to measure and to hash, both
    /// when setting a password and when signing in.
    package static func normalized(_ password: Redacted<String>) -> Redacted<String> {
        Redacted(password.exposed.precomposedStringWithCanonicalMapping)
    }

    /// Every rule the NFC form of `password` breaks, for an account with `email`; empty if
    /// the password is acceptable. The strength estimate is skipped for a password over
    /// the maximum length.
    package func evaluate(_ password: Redacted<String>, email: EmailAddress) -> [Violation] {
        violations(of: Self.normalized(password), email: email)
    }

    /// Returns the NFC form of `password` to hash, or throws if it breaks any rule.
    ///
    /// - Throws: ``LatchkeyError`` with code `weak_password`; its message lists what to
    ///   change and its `reasons` the violation codes.
    package func check(_ password: Redacted<String>, email: EmailAddress) throws -> Redacted<String> {
        let candidate = Self.normalized(password)
        let found = violations(of: candidate, email: email)
        guard found.isEmpty else {
            throw LatchkeyError(
                .weakPassword, found.map(\.message).joined(separator: " "),
                reasons: found.map(\.code))
        }
        return candidate
    }

    /// The rules `candidate`, already in NFC, breaks.
    private func violations(of candidate: Redacted<String>, email: EmailAddress) -> [Violation] {
        let length = candidate.exposed.count
        var violations = [Violation]()
        if length < minimumLength { violations.append(.tooShort(minimum: minimumLength)) }
        if length > maximumLength {
            violations.append(.tooLong(maximum: maximumLength))
        } else {
            let score = estimator.score(of: candidate, userInputs: Self.userInputs(for: email))
            if score < minimumScore { violations.append(.tooWeak(score: score)) }
        }
        if email.localPart.count >= 3, candidate.exposed.lowercased().contains(email.localPart) {
            violations.append(.containsEmail)
        }
        return violations
    }

    /// The email's local part, its domain and the domain's labels below the top level:
    /// the words zxcvbn should treat as trivially guessable for this account.
    private static func userInputs(for email: EmailAddress) -> [String] {
        let labels = email.domain.split(separator: ".").dropLast().map(String.init)
        return [email.localPart, email.domain] + labels
    }
}

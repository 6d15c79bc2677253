package import Foundation

/// A person who can sign in. The email is stored normalised (see ``EmailAddress``).
package struct Account: Sendable, Equatable {
    /// Whether the account may sign in and recover its password.
    package enum Status: String, Sendable {
        /// The account works normally.
        case active
        /// The account was disabled by an operator; it receives no reset mail.
        case disabled
    }

    /// A random, stable identifier (UUID string).
    package let id: String
    /// The normalised email address.
    package let email: String
    /// The Argon2id PHC string, or nil for an account without a password.
    package let passwordHash: String?
    /// Active or disabled.
    package let status: Status
    /// Bumped whenever the password changes; tokens carrying an older version are void.
    package let credentialVersion: Int
    /// The preferred language for mail (`en`, `pt`, `es`, `ar`), if known.
    package let locale: String?
    /// Bumped by `latchkey users unlock`: sign-in failure counts are kept per epoch (and per
    /// credential version, so a completed reset clears them too).
    package let failureEpoch: Int
    /// When the account was created.
    package let createdAt: Date

    /// Creates an account value.
    package init(
        id: String, email: String, passwordHash: String?, status: Status,
        credentialVersion: Int, locale: String?, failureEpoch: Int = 0, createdAt: Date
    ) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.status = status
        self.credentialVersion = credentialVersion
        self.locale = locale
        self.failureEpoch = failureEpoch
        self.createdAt = createdAt
    }
}

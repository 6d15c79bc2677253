public import Foundation

/// A person who can sign in. The email is stored normalised (see ``EmailAddress``).
public struct Account: Sendable, Equatable {
    /// Whether the account may sign in and recover its password.
    public enum Status: String, Sendable {
        /// The account works normally.
        case active
        /// The account was disabled by an operator; it receives no reset mail.
        case disabled
    }

    /// A random, stable identifier (UUID string).
    public let id: String
    /// The normalised email address.
    public let email: String
    /// The Argon2id PHC string, or nil for an account without a password.
    public let passwordHash: String?
    /// Active or disabled.
    public let status: Status
    /// Bumped whenever the password changes; tokens carrying an older version are void.
    public let credentialVersion: Int
    /// The preferred language for mail (`en`, `pt`, `es`, `ar`), if known.
    public let locale: String?
    /// When the account was created.
    public let createdAt: Date

    /// Creates an account value.
    public init(
        id: String, email: String, passwordHash: String?, status: Status,
        credentialVersion: Int, locale: String?, createdAt: Date
    ) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.status = status
        self.credentialVersion = credentialVersion
        self.locale = locale
        self.createdAt = createdAt
    }
}

public import Foundation

/// What the server says about a valid reset token, to show before asking for the new
/// password ("Set a new password for j***@example.com").
public struct ResetTokenStatus: Sendable, Equatable {
    /// The account's address with most of the local part hidden, e.g. `j***@example.com`.
    public let emailHint: String?
    /// When the link stops working.
    public let expiresAt: Date?

    /// A status with the given details.
    public init(emailHint: String?, expiresAt: Date?) {
        self.emailHint = emailHint
        self.expiresAt = expiresAt
    }
}

package import Foundation

/// A reset token as stored: only the SHA-256 digest of the token, never the token.
package struct ResetTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token's bytes as sent (the base64url string's UTF-8).
    package let digest: Data
    /// The account the token resets.
    package let accountID: String
    /// When it was issued.
    package let createdAt: Date
    /// When it stops working.
    package let expiresAt: Date

    /// Creates a record value.
    package init(digest: Data, accountID: String, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Reset tokens, each change made atomically together with the mail it causes.
package protocol ResetTokenStore: Sendable {
    /// In one transaction: marks every outstanding token of the account superseded, stores
    /// `token`, and queues `mail` in the outbox.
    func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws

    /// The token with this digest if it is neither used, superseded nor expired at `now`
    /// and its account is active, with that account. Never changes anything.
    func usableResetToken(digest: Data, now: Date) throws -> (token: ResetTokenRecord, account: Account)?

    /// In one transaction, and only if the token is still usable at `now` (as in
    /// ``usableResetToken(digest:now:)``; one atomic conditional update, so of any number of
    /// racing callers, even on different servers, exactly one wins): consumes the token,
    /// sets the account's password hash, bumps its credential version, revokes every
    /// session of the account, supersedes its other reset tokens and queues the mail
    /// `notification` builds for the updated account. Returns the updated account, or nil
    /// when the token was not usable (then nothing changed).
    ///
    /// `notification` runs inside the transaction: it must not use the store, and when it
    /// throws, nothing is changed (the token stays usable) and its error is rethrown.
    func completeReset(
        digest: Data, newPasswordHash: String, now: Date,
        notification: (Account) throws -> MailMessage
    ) throws -> Account?
}

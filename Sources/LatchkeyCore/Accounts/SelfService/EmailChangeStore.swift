package import Foundation

/// A token of an address change, as stored: only its SHA-256 digest, with both addresses.
package struct EmailChangeToken: Sendable, Equatable {
    /// What the token does.
    package enum Kind: String, Sendable {
        /// Mailed to the new address: confirms it, and the change is made.
        case confirm
        /// Mailed to the old address once the change is made: undoes it.
        case undo
    }

    /// SHA-256 of the token's bytes as sent (the base64url string's UTF-8).
    package let digest: Data
    /// What the token does.
    package let kind: Kind
    /// The account whose address changes.
    package let accountID: String
    /// The account's address when the change was asked for (normalised).
    package let oldEmail: String
    /// The address it changes to (normalised).
    package let newEmail: String
    /// When it was issued.
    package let createdAt: Date
    /// When it stops working.
    package let expiresAt: Date

    /// Creates a record value.
    package init(digest: Data, kind: Kind, accountID: String, oldEmail: String, newEmail: String, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.kind = kind
        self.accountID = accountID
        self.oldEmail = oldEmail
        self.newEmail = newEmail
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Address changes: asked for by a live login, made when the new address confirms, undone from
/// the old one. Each token is consumed by one conditional update (of racing callers, even on
/// different servers, exactly one wins), and each change is made with the account locked and,
/// where the stores need it, the address locked against a concurrent change or account
/// creation, so an address stays unique.
package protocol EmailChangeStore: Sendable {
    /// In one transaction, only while `login` is live (see ``AccountChangeStore``) and its
    /// account's address is still the one `confirmation` changes from: supersedes the account's
    /// unused confirmation tokens, stores `confirmation` (nil: none, when the new address
    /// already has an account) and queues `mail`. False (nothing changed) otherwise.
    func requestEmailChange(login: LoginReference, confirmation: EmailChangeToken?, mail: MailMessage, now: Date) throws -> Bool

    /// In one transaction: consumes the confirmation token `digest` if it is unused,
    /// unsuperseded and unexpired at `now`; changes its account's address from the token's old
    /// address to its new one if the account is active, still has the old address and no
    /// account has the new one; supersedes the account's other confirmation tokens; stores
    /// `undo` (an undo token for this change, its digest and expiry) and queues the mail
    /// `notification` builds from the confirmed token and the updated account (to the old
    /// address). Returns the updated account, or nil when the token was not usable or the
    /// change could not be made (the token is then spent, nothing else changed).
    /// `notification` runs inside the transaction and must not use the store.
    func confirmEmailChange(
        digest: Data, undo: (digest: Data, expiresAt: Date), now: Date,
        notification: (EmailChangeToken, Account) throws -> MailMessage
    ) throws -> Account?

    /// In one transaction, if the undo token `digest` is unused, unsuperseded and unexpired at
    /// `now` and its old address is free (no other account has it): consumes it, gives its
    /// account the old address back, bumps the credential version, ends every login and
    /// browser session of the account, supersedes its unused reset tokens and confirmation
    /// tokens and the undo tokens of later changes (this one undoes them too; an undo token of
    /// an earlier change stays usable). Returns the updated account, or nil (nothing changed).
    func undoEmailChange(digest: Data, now: Date) throws -> Account?
}

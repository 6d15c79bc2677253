package import Foundation

/// A live login of an account, as its list of signed-in devices shows it.
package struct LiveLogin: Sendable, Equatable {
    /// The login's id: its refresh-token family (an access token's `sid`).
    package let id: String
    /// The OAuth client it was issued to; nil for a first-party login (`/auth/login`).
    package let clientID: String?
    /// When the person signed in (the login's ``Assurance/authTime``; for a login started
    /// before that was kept, when its current token was issued).
    package let signedInAt: Date
    /// When its current refresh token was issued: the login's last refresh, or its start.
    package let lastUsedAt: Date
    /// Where it was started from.
    package let origin: LoginOrigin

    /// Creates the value.
    package init(id: String, clientID: String?, signedInAt: Date, lastUsedAt: Date, origin: LoginOrigin) {
        self.id = id
        self.clientID = clientID
        self.signedInAt = signedInAt
        self.lastUsedAt = lastUsedAt
        self.origin = origin
    }
}

/// The changes a signed-in person makes to their own account, each one transaction made only
/// while the login making it is live (``LoginReference``): not revoked, not past its absolute
/// expiry, its account active with the login's credential version — checked with the account
/// locked, as every writer of an account's tokens locks it.
package protocol AccountChangeStore: Sendable {
    /// Sets the password hash of the login's account to `newPasswordHash` and bumps its
    /// credential version; ends every browser session and every other login of the account
    /// (the login itself moves to the new credential version: its refresh token keeps working,
    /// its access tokens carry the old one and stop); supersedes every unused reset token; and
    /// queues the mail `notification` builds for the updated account. Returns the updated
    /// account, or nil (nothing changed) when the login was not live. `notification` runs
    /// inside the transaction and must not use the store.
    func changePassword(
        login: LoginReference, newPasswordHash: String, now: Date, notification: (Account) throws -> MailMessage
    ) throws -> Account?

    /// Deletes the login's account and everything that holds its id or address: its pending
    /// reset requests, every mail to its address (sent or not), and — with the account — its
    /// reset tokens, sessions, logins, authorization codes and address changes; then queues
    /// the mail `notification` builds for the account as it was (after the deletion, so the
    /// deletion does not remove it). Returns the deleted account, or nil (nothing changed) when
    /// the login was not live. `notification` runs inside the transaction and must not use the store.
    func deleteAccount(login: LoginReference, now: Date, notification: (Account) throws -> MailMessage) throws -> Account?

    /// The account's live logins at `now` (each holding a refresh token that is unused,
    /// unrevoked and unexpired, issued for the account's current credential version), most
    /// recently used first.
    func liveLogins(accountID: String, now: Date) throws -> [LiveLogin]

    /// Ends the live login `id` of the account (revokes every token of it); false, changing
    /// nothing, when `id` is not one of the account's live logins.
    func endLogin(id: String, accountID: String, now: Date) throws -> Bool
}

package import Foundation

/// Accounts: creation, lookup, listing, status.
package protocol AccountStore: Sendable {
    /// Inserts a new account. Throws `account_exists` when the email is taken.
    func createAccount(_ account: Account) throws
    /// Inserts a new account and, when `sealedSecondFactor` is given, its enrolled authenticator
    /// (a TOTP secret sealed for the account, see ``OneTimeCodeSignIn``), with no code accepted
    /// yet and no recovery codes, in one transaction. Throws `account_exists` when the email is
    /// taken (and stores nothing).
    func createAccount(_ account: Account, sealedSecondFactor: String?) throws
    /// The account with this normalised email, if any.
    func account(email: String) throws -> Account?
    /// The account with this id, if any.
    func account(id: String) throws -> Account?
    /// Every account, oldest first.
    func allAccounts() throws -> [Account]
    /// Sets the status of the account with this email; false when there is none.
    /// Disabling also ends everything the account was issued — every refresh-token family,
    /// browser session and unused reset token, and (its credential version goes up) every
    /// access token and authorization code — so enabling it again revives none of them.
    func setStatus(_ status: Account.Status, email: String) throws -> Bool
    /// Replaces the account's password hash with `newHash` (the same password, hashed with
    /// newer parameters) only if it is still `currentHash`, so it never undoes a concurrent
    /// reset; the credential version is unchanged. Returns whether it was replaced.
    func rehashPassword(accountID: String, currentHash: String, newHash: String, now: Date) throws -> Bool
    /// Starts a new epoch of sign-in failure counts for the account with this email (its
    /// ``Account/failureEpoch`` goes up by one), which ends any lockout at once on every
    /// server; false when there is no such account.
    func clearSignInFailures(email: String, now: Date) throws -> Bool
    /// In one transaction, as a completed reset does: sets the password hash of the account
    /// with this email, bumps its credential version, revokes every session and supersedes
    /// every outstanding reset token; false when there is no such account.
    func replacePassword(email: String, newPasswordHash: String, now: Date) throws -> Bool
    /// Deletes the account with this email with its reset tokens, sessions, authorization
    /// codes, pending reset requests and the mail not yet sent to it; false when there is
    /// no such account.
    func deleteAccount(email: String) throws -> Bool
    /// Gives the account with the address `current` the address `new` and ends every session
    /// and reset link of it (its credential version moves on, so its access tokens stop
    /// verifying too), queuing the message `notice` makes from the account as it was (mail to
    /// the old address) in the same transaction. Returns the account as it was; nil when no
    /// account has `current`. Throws `account_exists` when an account has `new` already.
    func replaceEmail(current: String, new: String, now: Date, notice: (Account) throws -> MailMessage) throws -> Account?
    /// The password hashes of up to `limit` active accounts chosen at random: what verifying
    /// a password costs across the accounts (see ``VerificationCostProfile``).
    func samplePasswordHashes(limit: Int) throws -> [String]
}

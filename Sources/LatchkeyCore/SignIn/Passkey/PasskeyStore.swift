package import Foundation
package import LatchkeyWebAuthn

/// A passkey registered to an account: the credential record the registration ceremony
/// verified (``LatchkeyWebAuthn/CredentialRecord``), with what the account's list shows.
package struct Passkey: Sendable, Equatable {
    /// The verified credential: ID (unique across all accounts), COSE key, algorithm, sign
    /// count (the highest seen), BE, BS (as last used), transports, AAGUID.
    package let credential: CredentialRecord
    /// The account it signs in to.
    package let accountID: String
    /// The user handle of that account (``PasskeyStore/passkeyUserHandle(accountID:creating:)``).
    package let userHandle: Data
    /// The name the owner gave it (1–64 characters, no control or text-direction characters).
    package let name: String
    /// When it was registered.
    package let createdAt: Date
    /// When it last signed in; nil when never.
    package let lastUsedAt: Date?

    /// Creates the value.
    package init(credential: CredentialRecord, accountID: String, userHandle: Data, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.credential = credential
        self.accountID = accountID
        self.userHandle = userHandle
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A challenge handed out in a ceremony's options, kept only as the SHA-256 (hex) of its
/// bytes until it is used once or expires.
package struct PasskeyChallengeRecord: Sendable, Equatable {
    /// Which ceremony it is for; a challenge is accepted by that ceremony only.
    package enum Purpose: String, Sendable {
        /// Adding a passkey to a signed-in account.
        case registration
        /// Signing in with a passkey.
        case authentication
    }

    /// SHA-256 of the challenge's bytes, as 64 lowercase hex digits.
    package let digest: String
    /// The ceremony it is for.
    package let purpose: Purpose
    /// The account a registration challenge was issued to; nil for authentication.
    package let accountID: String?
    /// When it was issued.
    package let createdAt: Date
    /// When it stops being accepted.
    package let expiresAt: Date

    /// Creates the value.
    package init(digest: String, purpose: Purpose, accountID: String?, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.purpose = purpose
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What became of a passkey handed to ``PasskeyStore/addPasskey(_:by:limit:notice:)``.
package enum PasskeyAddition: Sendable, Equatable {
    /// Stored.
    case added
    /// A passkey with its credential ID is registered already, to this account or another.
    case exists
    /// The account has `limit` passkeys already.
    case limitReached
    /// The login that asked is no longer live (signed out, its account's password reset or
    /// changed, the account disabled or deleted): nothing was stored.
    case signInEnded
}

/// What became of a ``PasskeyStore/deletePasskey(by:credentialID:now:notice:)``.
package enum PasskeyDeletion: Sendable, Equatable {
    /// Deleted.
    case deleted
    /// The account has no passkey with this credential ID.
    case notFound
    /// Refused: the account has no password and this is its only passkey, so it could never
    /// sign in again.
    case lastSignInMethod
    /// The login that asked is no longer live: nothing was deleted.
    case signInEnded
}

/// The credentials of the passkey sign-in method (``PasskeySignIn``): registered passkeys,
/// each account's user handle, and the ceremonies' challenges. Every change that must have
/// one winner is one conditional statement or one transaction under the account's lock, so
/// it holds across servers sharing the database.
package protocol PasskeyStore: Sendable {
    /// The account's user handle (WebAuthn's `user.id`): the one stored, else `creating` (32
    /// random bytes), stored now. Stable for the account's life, unique across accounts, and
    /// no function of its id or address. Nil when the account does not exist.
    func passkeyUserHandle(accountID: String, creating: Data) throws -> Data?
    /// The account's passkeys, newest first.
    func passkeys(accountID: String) throws -> [Passkey]
    /// The passkey with `credentialID`, of whichever account, with its account's user handle.
    func passkey(credentialID: Data) throws -> Passkey?
    /// Stores `passkey` for `login`'s account unless `login` is no longer live, its credential
    /// ID is registered already (to any account) or the account has `limit` passkeys, and
    /// queues the message `notice` makes from the account (as it is then), in one transaction
    /// under the account's lock: the passkey is stored with its mail or not at all, and never
    /// for a login a reset or sign-out ended a moment before (a passkey outlives a reset).
    func addPasskey(_ passkey: Passkey, by login: LoginReference, limit: Int, notice: (Account) throws -> MailMessage) throws
        -> PasskeyAddition
    /// Records a sign-in with the passkey `credentialID` at `now`: its counter becomes the
    /// greater of the stored one and `signCount` (it never goes down), its backup state
    /// `backupState`. False when it no longer exists.
    func recordPasskeyUse(credentialID: Data, signCount: UInt32, backupState: Bool, now: Date) throws -> Bool
    /// Renames the account's passkey `credentialID`; nil when the account has none with it.
    func renamePasskey(accountID: String, credentialID: Data, name: String) throws -> Passkey?
    /// Deletes the passkey `credentialID` of `login`'s account, unless `login` is no longer live
    /// or the account has no password and this is its only passkey, and queues the message
    /// `notice` makes from the account and the passkey's name, at `now`: decided and done in one
    /// transaction under the account's lock (no mail when nothing was deleted).
    func deletePasskey(
        by login: LoginReference, credentialID: Data, now: Date, notice: (Account, _ name: String) throws -> MailMessage
    ) throws -> PasskeyDeletion
    /// Keeps a challenge; challenges that expired by its `createdAt` are swept in the same
    /// transaction.
    func createPasskeyChallenge(_ challenge: PasskeyChallengeRecord) throws
    /// Takes the unexpired challenge with `digest` for `purpose` out, in one statement
    /// (`DELETE … RETURNING`): of racing callers one gets it, the others (and every later one) nil.
    func consumePasskeyChallenge(digest: String, purpose: PasskeyChallengeRecord.Purpose, now: Date) throws -> PasskeyChallengeRecord?
}

package import Foundation
import LatchkeyCrypto

/// A sign-up that was answered and waits to be processed: what the client asked for, kept only
/// until a worker processes it (the row is then deleted). The same for every address.
package struct PendingRegistrationRequest: Sendable, Equatable {
    /// A time-ordered identifier (``SecureRandom/identifier(orderedAt:)`` of ``acceptedAt``).
    package let id: String
    /// The normalised address, whether or not it has an account.
    package let email: String
    /// The Argon2id hash of the chosen password (the password itself is never kept).
    package let passwordHash: String
    /// The link base to use instead of the server's verification page (already allow-listed).
    package let verificationURL: String?
    /// The request's `locale` field, if any.
    package let locale: String?
    /// The request's `Accept-Language` header, if any.
    package let acceptLanguage: String?
    /// When it was accepted.
    package let acceptedAt: Date

    /// A new request accepted at `acceptedAt`, with a fresh id ordered at that instant.
    package init(
        email: String, passwordHash: String, verificationURL: String?, locale: String?, acceptLanguage: String?, acceptedAt: Date
    ) {
        self.init(
            id: SecureRandom.identifier(orderedAt: acceptedAt), email: email, passwordHash: passwordHash,
            verificationURL: verificationURL, locale: locale, acceptLanguage: acceptLanguage, acceptedAt: acceptedAt)
    }

    /// The request with id `id` as stored.
    package init(
        id: String, email: String, passwordHash: String, verificationURL: String?, locale: String?, acceptLanguage: String?,
        acceptedAt: Date
    ) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.verificationURL = verificationURL
        self.locale = locale
        self.acceptLanguage = acceptLanguage
        self.acceptedAt = acceptedAt
    }
}

/// A registration waiting for its address to be confirmed: the digest of the token its mail
/// carries, and the account to create when the token is used. It is not an account: nothing
/// can sign in with it.
package struct PendingRegistration: Sendable, Equatable {
    /// SHA-256 of the verification token's bytes as sent.
    package let digest: Data
    /// The normalised address it would create an account for.
    package let email: String
    /// The Argon2id hash of the password chosen with it.
    package let passwordHash: String
    /// The language the person asked in, kept as the account's.
    package let locale: String?
    /// When it was issued.
    package let createdAt: Date
    /// When its token stops working.
    package let expiresAt: Date

    /// Creates the value.
    package init(digest: Data, email: String, passwordHash: String, locale: String?, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.email = email
        self.passwordHash = passwordHash
        self.locale = locale
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What processing a sign-up request leads to.
package enum RegistrationOutcome: Sendable {
    /// A new address: store the registration (superseding the address's earlier ones) and
    /// queue the mail that carries its token.
    case verify(PendingRegistration, mail: MailMessage)
    /// The address has an account: queue the mail that says so.
    case notify(MailMessage)
    /// Nothing to send (the address's mail limit was reached).
    case drop
}

/// Sign-up requests and the registrations waiting for their address to be confirmed.
package protocol RegistrationStore: Sendable {
    /// Stores a sign-up request for later processing: one insert, the same for every address.
    func acceptRegistrationRequest(_ request: PendingRegistrationRequest) throws
    /// The ids of up to `limit` pending requests accepted before `cutoff`, oldest first.
    func pendingRegistrationRequestIDs(acceptedBefore cutoff: Date, limit: Int) throws -> [String]
    /// In one transaction: takes the request `id` (deletes it; of racing workers, even on
    /// different servers, exactly one gets it), asks `handle` what to do given the account of its
    /// address (nil when there is none, whatever its status), and does it. Returns false when
    /// there was no such request. When `handle` throws, nothing changes and the request stays.
    func processRegistrationRequest(
        id: String, now: Date, handle: (PendingRegistrationRequest, Account?) throws -> RegistrationOutcome
    ) throws -> Bool
    /// In one transaction, and only if the registration with this token digest is neither used,
    /// superseded nor expired at `now` (one conditional update: of racing callers exactly one
    /// wins) and its address still has no account: uses it and creates the active account
    /// `accountID` with its address, password hash and locale. Returns the account, or nil
    /// (nothing created; the token is spent if it was usable).
    func completeRegistration(digest: Data, accountID: String, now: Date) throws -> Account?
}

package import Foundation
import LatchkeyCrypto

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

/// A reset request that was answered and is waiting to be processed: what the client asked
/// for, kept only until a worker processes it (the row is then deleted).
package struct PendingResetRequest: Sendable, Equatable {
    /// A time-ordered identifier (``SecureRandom/identifier(orderedAt:)`` of ``acceptedAt``):
    /// a store keeps pending requests in the order of their ids, which is the order they
    /// were accepted in, and finds those accepted before an instant by the id's time prefix.
    package let id: String
    /// The normalised address, whether or not it has an account.
    package let email: String
    /// The link base to use instead of the default reset page (already allow-listed).
    package let resetURL: String?
    /// The request's `locale` field, if any.
    package let locale: String?
    /// The request's `Accept-Language` header, if any.
    package let acceptLanguage: String?
    /// When it was accepted.
    package let acceptedAt: Date

    /// A new request accepted at `acceptedAt`, with a fresh id ordered at that instant.
    package init(email: String, resetURL: String?, locale: String?, acceptLanguage: String?, acceptedAt: Date) {
        self.init(
            id: SecureRandom.identifier(orderedAt: acceptedAt), email: email, resetURL: resetURL, locale: locale,
            acceptLanguage: acceptLanguage, acceptedAt: acceptedAt)
    }

    /// The request with id `id` as stored (the id made when it was accepted).
    package init(id: String, email: String, resetURL: String?, locale: String?, acceptLanguage: String?, acceptedAt: Date) {
        self.id = id
        self.email = email
        self.resetURL = resetURL
        self.locale = locale
        self.acceptLanguage = acceptLanguage
        self.acceptedAt = acceptedAt
    }
}

/// A reset token to store with the mail that carries it.
package struct IssuedResetToken: Sendable {
    /// The token as stored (its digest).
    package let token: ResetTokenRecord
    /// The mail with the link.
    package let mail: MailMessage

    /// Creates the value.
    package init(token: ResetTokenRecord, mail: MailMessage) {
        self.token = token
        self.mail = mail
    }
}

/// Reset requests and reset tokens, each change made atomically together with the mail it causes.
package protocol ResetTokenStore: Sendable {
    /// Stores a request for later processing: one insert, the same for every address, so it
    /// survives a crash and any instance can process it. Returns its write, which settles once
    /// the insert committed (or failed): the store may commit it together with others after
    /// returning, so answer the request only once it has settled.
    func acceptResetRequest(_ request: PendingResetRequest) -> DeferredWrite

    /// The ids of up to `limit` pending requests accepted before `cutoff` (to the
    /// millisecond), oldest first (those whose instance did not process them: it stopped, or
    /// crashed). Found by their time-ordered ids (``PendingResetRequest/id``).
    func pendingResetRequestIDs(acceptedBefore cutoff: Date, limit: Int) throws -> [String]

    /// How many requests are pending, counted no further than `limit` (so the count costs
    /// at most `limit` index entries, however many there are).
    func pendingResetRequestCount(upTo limit: Int) throws -> Int

    /// For each of `ids`, as a transaction of its own (which the store may commit together
    /// with others, undoing only that request's changes when it fails): takes the pending request (deletes
    /// it; of racing workers, even on different servers, exactly one gets it), asks `issue`
    /// what to do with it given the active account of its address (nil when there is none),
    /// and — when `issue` returns a token — marks every outstanding token of the account
    /// superseded, stores the token and queues its mail. When `issue` throws, nothing of that
    /// request changes and it stays pending; the others go on. Returns each request's outcome,
    /// in the order of `ids`: whether it was taken (false: there was no such request, another
    /// worker took it), or its error. `issue` may run on another thread, before this returns,
    /// and more than once for a request (a run whose changes were undone, when another request
    /// of the batch failed).
    func processResetRequests(
        ids: [String], now: Date, issue: @escaping @Sendable (PendingResetRequest, Account?) throws -> IssuedResetToken?
    ) -> [Result<Bool, LatchkeyError>]

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

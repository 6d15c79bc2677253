import Foundation
import LatchkeyCore
import Synchronization

extension ResetTokenStore {
    /// Stores `token` with `mail` for its account as a processed reset request would: a
    /// pending request for `address` taken in one transaction that supersedes the account's
    /// outstanding tokens.
    func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws {
        let request = PendingResetRequest(email: mail.to, resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: now)
        try acceptResetRequest(request).wait().get()
        _ = try processResetRequest(id: request.id, now: now) { _, _ in IssuedResetToken(token: token, mail: mail) }
    }
}

extension ResetTokenStore {
    /// ``processResetRequests(ids:now:issue:)`` for the one request `id`: whether it was taken;
    /// its error thrown.
    func processResetRequest(
        id: String, now: Date, issue: @escaping @Sendable (PendingResetRequest, Account?) throws -> IssuedResetToken?
    ) throws -> Bool {
        try processResetRequests(ids: [id], now: now, issue: issue)[0].get()
    }
}

/// Values recorded by closures that may run on other threads, in the order they came.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] {
        values.withLock { $0 }
    }
}

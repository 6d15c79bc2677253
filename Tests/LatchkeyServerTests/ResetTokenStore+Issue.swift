import Foundation
import LatchkeyCore

extension ResetTokenStore {
    /// Stores `token` with `mail` for its account as a processed reset request would: a
    /// pending request for `address` taken in one transaction that supersedes the account's
    /// outstanding tokens.
    func issueResetToken(_ token: ResetTokenRecord, mail: MailMessage, now: Date) throws {
        let request = PendingResetRequest(
            id: UUID().uuidString.lowercased(), email: mail.to, resetURL: nil, locale: nil, acceptLanguage: nil, acceptedAt: now)
        try acceptResetRequest(request)
        _ = try processResetRequest(id: request.id, now: now) { _, _ in IssuedResetToken(token: token, mail: mail) }
    }
}

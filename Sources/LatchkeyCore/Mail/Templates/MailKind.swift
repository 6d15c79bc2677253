package import Foundation
package import LatchkeyCrypto

/// The messages the server sends, with what each needs to be written.
package enum MailKind: Sendable {
    /// "Someone asked to reset your password": carries the secret reset `link` (it appears
    /// in the message body and nowhere else) and how many minutes it stays valid.
    case passwordReset(link: Redacted<String>, validMinutes: Int)
    /// "Your password was changed on … at … UTC": says when, and points to the page where the
    /// owner can reset it if the change was not theirs.
    case passwordChanged(resetPageURL: String, changedAt: Date)
    /// "The address of your account was changed on … at … UTC", sent to the old address:
    /// says to which address (as a hint, `n***@example.com`), when, and what to do if the
    /// reader did not ask for it.
    case addressChanged(newAddressHint: String, changedAt: Date)
}

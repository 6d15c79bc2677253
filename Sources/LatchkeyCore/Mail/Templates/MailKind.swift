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
    /// "Confirm your address": a sign-up's secret confirmation `link` (in the body and nowhere
    /// else) and how many hours it stays valid.
    case emailVerification(link: Redacted<String>, validHours: Int)
    /// "You already have an account": a sign-up for an address that has one; points to the
    /// reset page.
    case accountExists(resetPageURL: String)
}

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
    /// "Confirm your new address", to the new address of an account: carries the secret
    /// confirmation `link` and how many hours it stays valid.
    case emailConfirmation(link: Redacted<String>, validHours: Int)
    /// "Someone tried to move an account to your address", to an address that has an
    /// account already: nothing changed; no link.
    case emailTaken
    /// "Your address was changed to …", to the account's old address once the change is made:
    /// the new address's hint (`j***@example.com`), when, and the secret `undoLink` with how
    /// many days it stays valid.
    case emailChanged(newAddressHint: String, changedAt: Date, undoLink: Redacted<String>, validDays: Int)
    /// "Your account was deleted on … at … UTC".
    case accountDeleted(deletedAt: Date)
    /// "The address of your account was changed on … at … UTC", to the old address when an
    /// operator moved the account (`latchkey users set-email`): the new address's hint
    /// (`n***@example.com`), when, and what to do if the reader did not ask for it. No undo
    /// link: the change was the operator's.
    case operatorEmailChange(newAddressHint: String, changedAt: Date)
    /// "Two-step sign-in is on/off for your account": the change and when (UTC); no link.
    case secondFactorChanged(SecondFactorChange, changedAt: Date)
    /// "A recovery code of your account was used": when (UTC), and how many codes are left.
    case recoveryCodeUsed(usedAt: Date, remaining: Int)
    /// "New sign-in to your account": a sign-in from a device the account had not signed in
    /// from, when (UTC), the app or browser (`device`, a ``UserAgentFamily`` description; nil:
    /// not known), the truncated address (`address`; nil: not known), and the reset page.
    case newDeviceSignIn(signedInAt: Date, device: String?, address: String?, resetPageURL: String)
    /// "A passkey was added to / removed from your account": which one (`name`, the name its
    /// owner gave it: user input, so only in the body — quoted, isolated and with bidirectional
    /// controls replaced — never in the subject), when (UTC), and what to do if it was not the
    /// owner; no link.
    case passkeyChanged(PasskeyChange, name: String, changedAt: Date)

    /// What happened to an account's second factor.
    package enum SecondFactorChange: Sendable {
        /// The owner enrolled an authenticator app.
        case enabled
        /// The owner turned it off, with a code.
        case disabled
        /// The operator removed it (`latchkey users tfa-reset`).
        case removedByOperator
    }

    /// What happened to one of an account's passkeys (a rename is no change worth a mail).
    package enum PasskeyChange: Sendable {
        /// The owner (or whoever held the session) registered it.
        case added
        /// It was deleted from the account (not by the account's deletion, whose own mail
        /// covers it).
        case removed
    }
}

/// The words of the mails about an account's passkeys: one added, one removed (NIST SP 800-63B
/// §6.1.2.1: the subscriber is told when an authenticator is bound to or removed from the
/// account).
///
/// Texts that name the product, the passkey, a date or a time take them as arguments, already
/// isolated for the language's direction (``SupportedLanguage/isolated(_:)``); the passkey's
/// name is the owner's own words (or an intruder's), so it appears only inside a sentence of
/// the body, quoted, never in a subject.
package struct PasskeyMailText: Sendable {
    /// The opening line.
    package let greeting: String
    /// The subject (also the HTML title) when a passkey was added.
    package let addedSubject: @Sendable (_ product: String) -> String
    /// That the passkey `name` was added to the reader's account on `date` at `time` (UTC), and
    /// that it signs in to the account without the password.
    package let added: @Sendable (_ product: String, _ name: String, _ date: String, _ time: String) -> String
    /// What to do if the reader did not add it: remove it in the account's settings, since it
    /// keeps working until it is removed (a password reset does not remove it), then reset the
    /// password.
    package let ifNotYouAdded: String
    /// The subject when a passkey was removed.
    package let removedSubject: @Sendable (_ product: String) -> String
    /// That the passkey `name` was removed from the reader's account on `date` at `time` (UTC)
    /// and can no longer sign in to it.
    package let removed: @Sendable (_ product: String, _ name: String, _ date: String, _ time: String) -> String
    /// What to do if the reader did not remove it: someone has access to the account; reset the
    /// password and check the passkeys the account's settings list.
    package let ifNotYouRemoved: String
}

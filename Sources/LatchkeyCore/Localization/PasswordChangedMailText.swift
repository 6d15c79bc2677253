/// The words of the "your password was changed" mail: what happened, and what to do at
/// once if it was not the reader.
package struct PasswordChangedMailText: Sendable {
    /// The subject, also the HTML title.
    package let subject: String
    /// The opening line.
    package let greeting: String
    /// That the account's password was just changed.
    package let changed: String
    /// That nothing is to be done if the reader changed it.
    package let ifYou: String
    /// What to do if the reader did not: reset it now.
    package let ifNotYou: String
    /// The button's label (it opens the reset page).
    package let button: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

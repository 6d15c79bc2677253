/// The words of the password-reset mail. Plain wording for people who are not technical:
/// what happened, what to do, how long they have, and that ignoring the mail is safe.
package struct PasswordResetMailText: Sendable {
    /// The subject, also the HTML title.
    package let subject: String
    /// The opening line.
    package let greeting: String
    /// That someone asked to reset the password of this address.
    package let requested: String
    /// What to do: open the link below.
    package let instruction: String
    /// The button's label.
    package let button: String
    /// How long the link works, given its lifetime in minutes (at least 1), with the
    /// language's plural forms.
    package let validity: @Sendable (_ minutes: Int) -> String
    /// That the mail can be ignored and the password stays the same.
    package let ignore: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

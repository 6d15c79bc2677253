/// The words of the password-reset mail. Plain wording for people who are not technical:
/// what happened, what to do, how long they have, and that ignoring the mail is safe.
///
/// Texts that name the product (`LATCHKEY_PRODUCT_NAME`) take it as an argument, already
/// isolated for the language's direction (``SupportedLanguage/isolated(_:)``).
package struct PasswordResetMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That someone asked to reset the password of this address's account with the product.
    package let requested: @Sendable (_ product: String) -> String
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

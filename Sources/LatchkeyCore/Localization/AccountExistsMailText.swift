/// The words of the mail a sign-up sends to an address that already has an account: that the
/// reader has one, how to sign in or reset its password, and that nothing changed.
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct AccountExistsMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That someone tried to sign up for the product with this address, which already has an
    /// account.
    package let attempted: @Sendable (_ product: String) -> String
    /// What to do: sign in as usual, or reset the password if it is forgotten.
    package let instruction: String
    /// The button's label (it opens the reset page).
    package let button: String
    /// That if it was not the reader, nothing changed and the mail can be ignored.
    package let ignore: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

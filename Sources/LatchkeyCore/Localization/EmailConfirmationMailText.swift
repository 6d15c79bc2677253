/// The words of the mail that asks the new address of an account to confirm itself: who asked,
/// the link, how long it works, and that nothing changes without it.
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct EmailConfirmationMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That someone asked to use this address for their account with the product.
    package let requested: @Sendable (_ product: String) -> String
    /// What the link does: the account's address changes to this one.
    package let instruction: String
    /// The button's label.
    package let button: String
    /// How long the link works, in hours.
    package let validity: @Sendable (_ hours: Int) -> String
    /// That the reader may ignore the mail if they did not ask: nothing changes.
    package let ignore: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

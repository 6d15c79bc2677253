/// The words of the "confirm your address" mail a sign-up sends: what happened, what to do,
/// how long the link works, and that ignoring the mail is safe (no account is created).
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct EmailVerificationMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That someone signed up for the product with this address.
    package let requested: @Sendable (_ product: String) -> String
    /// What to do: open the link below to confirm the address and finish.
    package let instruction: String
    /// The button's label.
    package let button: String
    /// How long the link works, given its lifetime in hours (at least 1), with the language's
    /// plural forms.
    package let validity: @Sendable (_ hours: Int) -> String
    /// That the mail can be ignored, and then no account is created.
    package let ignore: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

/// The words of the mail to an address that already has an account, when someone asked to move
/// another account to it: nothing changed, and what the reader may do. It carries no link.
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct EmailTakenMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That someone asked to move an account with the product to this address.
    package let attempted: @Sendable (_ product: String) -> String
    /// That this address has an account already, so nothing was changed.
    package let nothingChanged: String
    /// What to do if it was the reader: sign in with this address, or use another one.
    package let ifYou: String
    /// That the reader may ignore the mail otherwise; their account is untouched.
    package let ifNotYou: String
}

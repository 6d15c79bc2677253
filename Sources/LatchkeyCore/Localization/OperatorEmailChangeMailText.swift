/// The words of the "the address of your account was changed" mail, sent to the old address
/// when an operator moves an account to another one (`latchkey users set-email`; a change the
/// owner makes sends ``EmailChangedMailText``'s, with an undo link).
///
/// Texts that name the product, an address or a time take them as arguments, already isolated
/// for the language's direction (``SupportedLanguage/isolated(_:)``).
package struct OperatorEmailChangeMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That the account's address was changed to `newAddress` (a hint, `n***@example.com`)
    /// on `date` (`2030-01-15`) at `time` (`08:00`), both UTC, so mail now goes there.
    package let changed: @Sendable (_ product: String, _ newAddress: String, _ date: String, _ time: String) -> String
    /// That every session of the account was ended, so it signs in again with the new address.
    package let signedOut: String
    /// What to do if the reader did not ask for it: contact the product's support at once.
    package let ifNotYou: @Sendable (_ product: String) -> String
}

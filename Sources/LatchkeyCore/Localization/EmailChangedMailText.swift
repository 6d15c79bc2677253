/// The words of the mail to an account's old address once its address was changed: to what,
/// when, and the link that undoes the change and signs every device out.
///
/// Texts that name the product, an address or a time take them as arguments, already isolated
/// for the language's direction (``SupportedLanguage/isolated(_:)``).
package struct EmailChangedMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That the address of the reader's account with the product was changed to `address` (a
    /// hint such as `j***@example.com`) on `date` (`2030-01-15`) at `time` (`08:00`), both UTC.
    package let changed: @Sendable (_ product: String, _ address: String, _ date: String, _ time: String) -> String
    /// That nothing is to be done if the reader changed it.
    package let ifYou: String
    /// What to do if the reader did not: the link gives the account this address back and
    /// signs every device out; then choose a new password.
    package let ifNotYou: String
    /// The button's label.
    package let button: String
    /// How long the link works, in days.
    package let validity: @Sendable (_ days: Int) -> String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

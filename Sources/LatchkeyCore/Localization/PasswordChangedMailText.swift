/// The words of the "your password was changed" mail: what happened and when, and what to do
/// at once if it was not the reader.
///
/// Texts that name the product or a time take them as arguments, already isolated for the
/// language's direction (``SupportedLanguage/isolated(_:)``).
package struct PasswordChangedMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That the password of the reader's account with the product was changed on `date`
    /// (`2030-01-15`) at `time` (`08:00`), both UTC.
    package let changed: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// That nothing is to be done if the reader changed it.
    package let ifYou: String
    /// What to do if the reader did not: someone may know the password; reset it now and
    /// change it wherever else it is used.
    package let ifNotYou: String
    /// The button's label (it opens the reset page).
    package let button: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

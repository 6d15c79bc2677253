/// The words of the mail that confirms an account was deleted: when, that everything went with
/// it, and what to do if it was not the reader.
///
/// Texts that name the product or a time take them as arguments, already isolated for the
/// language's direction (``SupportedLanguage/isolated(_:)``).
package struct AccountDeletedMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That the reader's account with the product was deleted on `date` (`2030-01-15`) at
    /// `time` (`08:00`), both UTC.
    package let deleted: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// That everything the account held is gone and every device was signed out.
    package let everythingRemoved: String
    /// That the address may be used for a new account with the product.
    package let registerAgain: @Sendable (_ product: String) -> String
    /// What to do if the reader did not delete it: someone knew the password.
    package let ifNotYou: String
}

/// The words of the "new sign-in to your account" mail: that the account was signed in to
/// from a device it had not seen, when, from what and from where, and what to do if it was
/// not the reader.
///
/// Texts that name the product, a time, a device or an address take them as arguments, already
/// isolated for the language's direction (``SupportedLanguage/isolated(_:)``).
package struct NewDeviceMailText: Sendable {
    /// The subject, also the HTML title, naming the product.
    package let subject: @Sendable (_ product: String) -> String
    /// The opening line.
    package let greeting: String
    /// That the reader's account with the product was signed in to from a new device on `date`
    /// (`2030-01-15`) at `time` (`08:00`), both UTC.
    package let signedIn: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// The line naming the app or browser (`Firefox on Linux`).
    package let device: @Sendable (_ name: String) -> String
    /// The line for a device whose app or browser is not known.
    package let unknownDevice: String
    /// The line naming the network the sign-in came from (`203.0.113.0`: the address with its
    /// last part zeroed).
    package let network: @Sendable (_ address: String) -> String
    /// That nothing is to be done if it was the reader.
    package let ifYou: String
    /// What to do if it was not: someone knows the password; reset it now.
    package let ifNotYou: String
    /// The button's label (it opens the reset page).
    package let button: String
    /// The line above the bare link, for mail clients that show no button.
    package let linkFallback: String
}

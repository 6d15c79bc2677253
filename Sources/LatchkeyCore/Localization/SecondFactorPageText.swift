/// The words of the second factor's pages: the code step of the `/oauth/authorize` sign-in, and
/// the enrolment page (`/oauth/two-step-sign-in`) with its QR code and recovery codes.
///
/// Texts that name the product take it as an argument, already isolated for the language's
/// direction (``SupportedLanguage/isolated(_:)``).
package struct SecondFactorPageText: Sendable {
    /// The code step's title and heading.
    package let codeTitle: String
    /// What to type: the 6-digit code the authenticator app shows for the product.
    package let codeIntro: @Sendable (_ product: String) -> String
    /// The code field's label.
    package let codeLabel: String
    /// What a person without their phone does: type a recovery code instead.
    package let recoveryHint: String
    /// The button that sends the code.
    package let verify: String
    /// The code was wrong, used already or spent: wait for the next one and try again.
    package let invalidCode: String
    /// The code step took too long (or was used already): sign in again.
    package let expired: String
    /// The enrolment page's title and heading.
    package let enrolTitle: String
    /// What the enrolment starts with: the account's address and password.
    package let enrolStart: String
    /// The button that goes on from the password to the QR code.
    package let continueButton: String
    /// How to add the account to the app: scan the QR code, or open the link on this device.
    package let scanIntro: String
    /// The link that opens the authenticator app (Apple's Passwords app on iOS) with the account.
    package let openInApp: String
    /// Before the secret, written out: for typing it in by hand.
    package let typeKey: String
    /// Before the code field: type the code the app now shows.
    package let confirmIntro: String
    /// The button that turns it on.
    package let turnOn: String
    /// The title once it is on.
    package let enabledTitle: String
    /// The recovery codes' introduction: each signs in once without the phone; shown only now.
    package let recoveryCodesIntro: String
    /// The account has two-step sign-in already.
    package let alreadyOn: String
}

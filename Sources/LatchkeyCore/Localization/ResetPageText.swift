/// The words of the web reset page (`/reset-password`), including the messages its script
/// shows for the API's answers.
package struct ResetPageText: Sendable {
    /// The page title and heading.
    package let title: String
    /// Above the request form: enter your address and get a link.
    package let requestIntro: String
    /// The email field's label.
    package let emailLabel: String
    /// The request form's button.
    package let sendLink: String
    /// After a request: a link was sent if the account exists.
    package let requestSent: String
    /// The address typed is not an email address (`invalid_email`).
    package let invalidEmail: String
    /// While the link's token is being validated.
    package let checking: String
    /// Before the account's masked address: choose a new password for …
    package let chooseFor: String
    /// The new password field's label.
    package let newPassword: String
    /// The password rules, shown under the new password field before anything is typed.
    package let passwordRules: String
    /// The repeated password field's label.
    package let repeatPassword: String
    /// The reset form's button.
    package let save: String
    /// After a successful reset.
    package let saved: String
    /// The next step after a reset when no app URL is configured: sign in to the product
    /// with the new password.
    package let signInNow: @Sendable (_ product: String) -> String
    /// The next step's button when an app URL is configured: continue to the product.
    package let continueTo: @Sendable (_ product: String) -> String
    /// The two passwords typed differ.
    package let mismatch: String
    /// The link's token is expired, used or unknown (`invalid_token`).
    package let invalidLink: String
    /// The password is too short (`too_short`).
    package let tooShort: String
    /// The password is too long (`too_long`).
    package let tooLong: String
    /// The password is too easy to guess (`too_weak`).
    package let tooWeak: String
    /// The password contains the email address (`contains_email`).
    package let containsEmail: String
    /// Any other failure, including a network error.
    package let failed: String
    /// The link to the request form after an invalid link.
    package let requestNew: String
}

/// The words of the `/oauth/logout` pages: the question whether to sign out, the page after
/// signing out, and errors.
package struct SignOutPageText: Sendable {
    /// The confirmation page's title and heading: sign out?
    package let confirmTitle: String
    /// What signing out does: the browser leaves the product, and its next sign-in asks for the password.
    package let confirmIntro: @Sendable (_ product: String) -> String
    /// The confirmation page's button.
    package let signOut: String
    /// The signed-out page's title and heading.
    package let signedOutTitle: String
    /// The signed-out page's text: signed out of the product in this browser.
    package let signedOutBody: @Sendable (_ product: String) -> String
    /// The error page's title and heading.
    package let errorTitle: String
    /// The app sent an invalid sign-out request (the reason follows, in English).
    package let invalidRequest: String
    /// The form's CSRF token is missing, expired or not this browser's.
    package let expiredForm: String
    /// The server failed or is briefly unavailable: try again later.
    package let tryAgainLater: String
}

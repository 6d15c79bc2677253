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
    /// The error page's title and heading when the fault is the server's (a `500` or `503`):
    /// signing out is briefly unavailable, not that the link is wrong.
    package let unavailableTitle: String
    /// The server is busy or a dependency briefly unavailable (a `503`): try again in a moment.
    package let tryAgainInAMoment: String
}

/// The words of the `/oauth/authorize` pages: sign-in, consent and errors.
package struct SignInPageText: Sendable {
    /// The sign-in page's title and heading.
    package let signInTitle: String
    /// Before the client's name: sign in to continue to …
    package let signInTo: String
    /// The email field's label.
    package let emailLabel: String
    /// The password field's label.
    package let passwordLabel: String
    /// The sign-in button.
    package let signIn: String
    /// The link to the reset page.
    package let forgotPassword: String
    /// One message for every kind of wrong credentials.
    package let invalidCredentials: String
    /// The consent page's title and heading.
    package let consentTitle: String
    /// After the client's name: … wants to access your account with the product.
    package let consentIntro: @Sendable (_ product: String) -> String
    /// Before the account's address: signed in as …
    package let signedInAs: String
    /// Before the list of requested scopes.
    package let scopesIntro: String
    /// What the `openid` scope lets the client do.
    package let openidScope: String
    /// What the `email` scope lets the client do.
    package let emailScope: String
    /// The consent page's allow button.
    package let allow: String
    /// The consent page's deny button.
    package let deny: String
    /// Before the button that signs the browser out: the signed-in person is someone else.
    package let notYou: String
    /// The button that signs the browser out and shows the sign-in form again.
    package let useAnotherAccount: String
    /// The error page's title and heading.
    package let errorTitle: String
    /// The app sent an invalid authorization request (the reason follows, in English).
    package let invalidRequest: String
    /// The form's CSRF token is missing, expired or not this browser's.
    package let expiredForm: String
    /// The server failed or is briefly unavailable: nothing the app or the person did wrong;
    /// try again later.
    package let tryAgainLater: String
    /// The error page's title and heading when the fault is the server's (a `500` or `503`):
    /// sign-in is briefly unavailable, not that the link is wrong.
    package let unavailableTitle: String
    /// The server is busy or a dependency briefly unavailable (a `503`): try again in a moment.
    package let tryAgainInAMoment: String
}

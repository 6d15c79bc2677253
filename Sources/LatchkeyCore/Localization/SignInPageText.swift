/// The words of the `/oauth/authorize` pages: sign-in, consent and errors.
package struct SignInPageText: Sendable {
    /// The sign-in page's title and heading.
    package let signInTitle: String
    /// Before the client's id: sign in to continue to …
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
    /// Too many failed sign-ins; wait and try again.
    package let tooMany: String
    /// The consent page's title and heading.
    package let consentTitle: String
    /// After the client's id: … wants to access your account.
    package let consentIntro: String
    /// Before the account's address: signed in as …
    package let signedInAs: String
    /// Before the list of requested scopes.
    package let scopesIntro: String
    /// The consent page's allow button.
    package let allow: String
    /// The consent page's deny button.
    package let deny: String
    /// The error page's title and heading.
    package let errorTitle: String
    /// The app sent an invalid authorization request (the reason follows in parentheses).
    package let invalidRequest: String
    /// The form's CSRF token is missing, expired or not this browser's.
    package let expiredForm: String
}

/// The person an access token acts for on their own account's routes (`/users/me…`): the
/// account, the login the token belongs to and what its sign-in proved. Made only by
/// ``AccountSelfService/owner(presenting:)``, from a token valid now and from a first-party login.
package struct AccountOwner: Sendable {
    /// The account, as it was when the token was verified.
    package let account: Account
    /// The login (refresh-token family) the token belongs to, with the credential version it carries.
    package let login: LoginReference
    /// What the login's sign-in proved, and when.
    package let assurance: Assurance
}

/// A login making a change to its own account: the store makes the change only while this login
/// is still live and the account still has this credential version, so a token verified just
/// before a password reset or a sign-out cannot change the account after it.
package struct LoginReference: Sendable, Equatable {
    /// The account the login belongs to.
    package let accountID: String
    /// The login's refresh-token family (an access token's `sid`).
    package let familyID: String
    /// The account's credential version the login's tokens carry (`cv`).
    package let credentialVersion: Int

    /// Creates the value.
    package init(accountID: String, familyID: String, credentialVersion: Int) {
        self.accountID = accountID
        self.familyID = familyID
        self.credentialVersion = credentialVersion
    }
}

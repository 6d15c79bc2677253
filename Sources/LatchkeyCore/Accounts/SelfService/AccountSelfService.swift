package import Foundation
package import LatchkeyCrypto

/// The signed-in person's own account (`/users/me…`): who they are, their password, their
/// signed-in devices, closing the account. One call per route; address changes are
/// ``EmailChangeService``'s.
///
/// Promises:
/// - Only an access token valid now (``TokenService/verifyAccessToken(_:)``) from a first-party
///   login — `/auth/login`, or an OAuth client registered first-party — acts for the account:
///   anything else is `invalid_credentials` (a refused token, challenged with
///   `WWW-Authenticate: Bearer`), or `forbidden` for a third-party client's token.
/// - A password change and a deletion pass ``Reauthentication`` first.
/// - Each change is made only while the login making it is still live with the credential
///   version its token carries, so a token verified just before a reset or a sign-out changes
///   nothing after it (`invalid_credentials`).
/// - A password change ends every other login and every browser session, keeps this login,
///   and mails the "password changed" notice in the same transaction; a deletion ends every
///   token and session at once with the account's rows and queues its confirmation mail in the
///   same transaction. Logs name addresses only by their keyed hash.
package final class AccountSelfService: Sendable {
    private let store: any Store
    private let tokens: TokenService
    private let reauthentication: Reauthentication
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let templates: MailTemplates
    private let resetPageURL: String
    private let addressKey: AddressKey
    private let clock: any WallClock
    private let logger: Logger

    /// Creates the service from its dependencies; `resetPageURL` is the web reset page the
    /// password-changed mail points to, `addressKey` keys the hashes of addresses in logs.
    package init(
        store: any Store, tokens: TokenService, reauthentication: Reauthentication, hasher: PasswordHasher,
        policy: PasswordPolicy, templates: MailTemplates, resetPageURL: String, addressKey: Redacted<Data>,
        clock: any WallClock, logger: Logger
    ) {
        self.store = store
        self.tokens = tokens
        self.reauthentication = reauthentication
        self.hasher = hasher
        self.policy = policy
        self.templates = templates
        self.resetPageURL = resetPageURL
        self.addressKey = AddressKey(addressKey)
        self.clock = clock
        self.logger = logger
    }

    /// The owner of the account `accessToken` acts for (nil: the request presented none).
    /// Throws `invalid_credentials` (with ``LatchkeyError/Cause/accessTokenRefused``) unless the
    /// token is valid now, and `forbidden` when it was issued to a client that is not
    /// first-party (or no longer registered).
    package func owner(presenting accessToken: Redacted<String>?) throws -> AccountOwner {
        guard let accessToken, accessToken.exposed.utf8.count <= Self.maximumAccessTokenLength,
            let verified = try tokens.verifyAccessToken(accessToken)
        else { throw Self.unauthenticated }
        if let clientID = verified.claims.client_id {
            guard try store.client(id: clientID)?.isFirstParty == true else {
                throw LatchkeyError(.forbidden, "Only the service's own apps may use the account's settings.")
            }
        }
        return AccountOwner(
            account: verified.account,
            login: LoginReference(accountID: verified.account.id, familyID: verified.claims.sid, credentialVersion: verified.claims.cv),
            assurance: verified.assurance)
    }

    /// Sets a new password for `owner`'s account, from `clientIP`. Passes ``Reauthentication``
    /// (a recent sign-in, or `currentPassword` with `code` when the account has a second factor), checks the policy (`weak_password` with reasons),
    /// then in one transaction stores the new hash, ends every other login and every browser
    /// session, keeps this login (its refresh token goes on; its access token must be refreshed)
    /// and queues the "password changed" mail, in the account's language, else
    /// `acceptLanguage`'s. Returns the updated account.
    package func changePassword(
        _ owner: AccountOwner, to newPassword: Redacted<String>, currentPassword: Redacted<String>?, code: Redacted<String>? = nil,
        clientIP: String, acceptLanguage: String?
    ) throws -> Account {
        try reauthentication.confirm(
            account: owner.account, assurance: owner.assurance, currentPassword: currentPassword, code: code, clientIP: clientIP)
        let normalized = try policy.check(newPassword, email: try EmailAddress(owner.account.email))
        let hash = try hasher.hash(normalized)
        let now = clock.now()
        let changed = try store.changePassword(login: owner.login, newPasswordHash: hash, now: now) { account in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: acceptLanguage, accountLocale: account.locale)
            return try templates.render(
                .passwordChanged(resetPageURL: resetPageURL + "?lang=" + language.rawValue, changedAt: now),
                to: account.email, language: language, id: SecureRandom.identifier())
        }
        guard let changed else { throw Self.unauthenticated }
        logger.info("password_changed", [
            "address": .string(addressKey.hash(changed.email)), "credential_version": .int(changed.credentialVersion),
        ])
        return changed
    }

    /// Deletes `owner`'s account, from `clientIP`: passes ``Reauthentication``, then in one
    /// transaction ends every token and session, removes the account's rows and queues the
    /// confirmation mail (in the account's language, else `acceptLanguage`'s). Logs
    /// `account_deleted` with the address's keyed hash only.
    package func deleteAccount(
        _ owner: AccountOwner, currentPassword: Redacted<String>?, code: Redacted<String>? = nil, clientIP: String,
        acceptLanguage: String?
    ) throws {
        try reauthentication.confirm(
            account: owner.account, assurance: owner.assurance, currentPassword: currentPassword, code: code, clientIP: clientIP)
        let now = clock.now()
        let deleted = try store.deleteAccount(login: owner.login, now: now) { account in
            let language = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: acceptLanguage, accountLocale: account.locale)
            return try templates.render(.accountDeleted(deletedAt: now), to: account.email, language: language, id: SecureRandom.identifier())
        }
        guard let deleted else { throw Self.unauthenticated }
        logger.info("account_deleted", ["address": .string(addressKey.hash(deleted.email))])
    }

    /// The live logins of `owner`'s account, most recently used first.
    package func logins(of owner: AccountOwner) throws -> [LiveLogin] {
        try store.liveLogins(accountID: owner.account.id, now: clock.now())
    }

    /// Ends the live login `id` of `owner`'s account (this login too, when it names it).
    /// Throws `login_not_found` when `id` is not one of the account's live logins.
    package func endLogin(_ id: String, of owner: AccountOwner) throws {
        guard try store.endLogin(id: id, accountID: owner.account.id, now: clock.now()) else {
            throw LatchkeyError(.loginNotFound, "No live login of this account has this id.")
        }
        logger.info("login_ended", ["account": .string(owner.account.id)])
    }

    /// The longest access token looked at; a longer one is refused unread.
    package static let maximumAccessTokenLength = 16 * 1024

    /// The one refusal of a missing or invalid access token, or of a login that ended.
    package static let unauthenticated = LatchkeyError(
        .invalidCredentials, "Sign in to use your account's settings.", cause: .accessTokenRefused)
}

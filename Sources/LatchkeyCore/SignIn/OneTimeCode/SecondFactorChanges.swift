/// Who turns an account's second factor on, and what must still hold for it: the store checks
/// it under the account's lock, in the transaction that enrols, so a sign-in that ended a moment
/// before (a password reset, a sign-out, the account disabled) enrols nothing.
package enum SecondFactorEnabling: Sendable, Equatable {
    /// The owner through a login (`/users/me/tfa/enable`): only while that login is still live
    /// with the credential version its token carries, as for every account change.
    case byLogin(LoginReference)
    /// The owner through the enrolment page, whose password step was right for the account at
    /// `credentialVersion`: only while the account is still active with that version.
    case byPasswordStep(accountID: String, credentialVersion: Int)

    /// The account whose second factor is turned on.
    package var accountID: String {
        switch self {
        case .byLogin(let login): login.accountID
        case .byPasswordStep(let accountID, _): accountID
        }
    }
}

/// Who removes an account's second factor.
package enum SecondFactorRemoval: Sendable, Equatable {
    /// The owner through a login (`/users/me/tfa/disable`): only while that login is still live,
    /// checked by the store under the account's lock in the transaction that removes it.
    case byOwner(LoginReference)
    /// The operator (`latchkey users tfa-reset`), for an owner who lost their authenticator and
    /// their recovery codes: no login is involved, so none is checked.
    case byOperator(accountID: String)

    /// The account whose second factor is removed.
    package var accountID: String {
        switch self {
        case .byOwner(let login): login.accountID
        case .byOperator(let accountID): accountID
        }
    }
}

/// What a change to an account's second factor came to. Only ``changed`` wrote anything or
/// queued a mail.
package enum SecondFactorChangeResult: Sendable, Equatable {
    /// The change was made, with its mail (if it has one) queued in the same transaction.
    case changed
    /// Nothing changed: the login (or the enrolment page's password step) that asked no longer
    /// holds — revoked, of an older credential version, or its account disabled or deleted.
    case signInEnded
    /// Nothing changed: the second factor is not in the state the change needs (enrolled
    /// already, no such pending secret, or none to replace or remove).
    case nothingToChange
}

import LatchkeyCore

/// What went wrong with a sign-in, as the sign-in page says it.
package enum SignInProblem: Sendable, Equatable {
    /// The address or password is wrong (one message for every kind): both fields are marked.
    case invalidCredentials
    /// Too many attempts: try again after `retryAfter` seconds (said as a round figure).
    case tooManyAttempts(retryAfter: Int)
    /// The second factor's code was wrong, used already or spent: the code field is marked.
    case invalidCode
    /// The code step took too long, or its challenge was used: sign in again.
    case secondFactorExpired
    /// The server did not accept a passkey (one message for every cause: an unknown
    /// credential, a failed check, a used challenge, a disabled account).
    case passkeyNotAccepted
}

extension SignInProblem {
    /// What a code page (the sign-in's code step, the enrolment's confirmation) says for this
    /// problem in `language`: every refusal of a code reads as a wrong code.
    func codePageText(in language: SupportedLanguage) -> String {
        switch self {
        case .tooManyAttempts(let retryAfter): language.catalogue.rateLimit.message(retryAfter: retryAfter)
        case .invalidCode, .invalidCredentials, .passkeyNotAccepted: language.catalogue.secondFactorPage.invalidCode
        case .secondFactorExpired: language.catalogue.secondFactorPage.expired
        }
    }
}

package import Foundation

/// One way a person proves who they are. Each method is one type in a folder of its own under
/// `LatchkeyCore/SignIn/` (the password: `Password/`), holding its credential check, its
/// limits and the persistence protocol of the credentials it owns; ``SignInService`` is the one
/// place that combines methods into a sign-in, and every route, page and command asks it.
package protocol SignInMethod: Sendable {
    /// What a successful use proves, for `amr`.
    var reference: AuthenticationMethodReference { get }
    /// The account `credential` proves, from `clientIP` at `now`; nil when the credential is
    /// of a kind this method does not take. Throws the method's refusal (for the password,
    /// `invalid_credentials` or `rate_limited`) when it takes the kind but the credential does
    /// not prove an account.
    func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> Account?
}

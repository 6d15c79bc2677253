package import Foundation

/// One way a person proves who they are. Each method is one type in a folder of its own under
/// `LatchkeyCore/SignIn/` (the password: `Password/`), holding its credential check, its
/// limits and the persistence protocol of the credentials it owns; ``SignInService`` is the one
/// place that combines methods into a sign-in, and every route, page and command asks it.
package protocol SignInMethod: Sendable {
    /// What a successful use proves, for `amr`.
    var reference: AuthenticationMethodReference { get }
    /// Every `amr` value a successful use proves, ``reference`` first (by default ``reference``
    /// alone; a passkey proves `hwk` and `user`).
    var references: [AuthenticationMethodReference] { get }
    /// Whether one successful use stands for both factors, so that an account with a second
    /// factor enrolled is signed in without its code (a passkey: a device held and the person
    /// verified on it). False by default.
    var provesBothFactors: Bool { get }
    /// The account `credential` proves, from `clientIP` at `now`; nil when the credential is
    /// of a kind this method does not take. Throws the method's refusal (for the password,
    /// `invalid_credentials` or `rate_limited`) when it takes the kind but the credential does
    /// not prove an account.
    func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> Account?
}

extension SignInMethod {
    package var references: [AuthenticationMethodReference] { [reference] }
    package var provesBothFactors: Bool { false }
}

/// A sign-in method that completes a sign-in begun with another (a second factor): an account
/// that has it enrolled is signed in only once both were proved. ``SignInService`` asks each
/// one whether it is enrolled after the first method proved the account.
package protocol SecondFactorMethod: SignInMethod {
    /// Whether `account` has this factor enrolled.
    func isEnrolled(_ account: Account) throws -> Bool
}

/// What went wrong with a sign-in, as the sign-in page says it.
package enum SignInProblem: Sendable, Equatable {
    /// The address or password is wrong (one message for every kind): both fields are marked.
    case invalidCredentials
    /// Too many attempts: try again after `retryAfter` seconds (said as a round figure).
    case tooManyAttempts(retryAfter: Int)
}

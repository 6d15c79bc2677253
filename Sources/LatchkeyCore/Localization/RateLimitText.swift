/// The words for a person who tried too often: what happened and how long to wait. Shown by
/// the reset page and the sign-in page; the English wording is also the JSON message of
/// `rate_limited` errors (``LatchkeyError/rateLimited(retryAfter:)``).
package struct RateLimitText: Sendable {
    /// That there were too many attempts (one sentence).
    package let tooMany: String
    /// When to try again, e.g. "Please try again in 2 minutes.", with the language's plural forms.
    package let tryAgainIn: @Sendable (_ wait: WaitTime) -> String

    /// The whole message for a wait of at least `retryAfter` seconds.
    package func message(retryAfter: Int) -> String {
        tooMany + " " + tryAgainIn(WaitTime(atLeast: retryAfter))
    }
}

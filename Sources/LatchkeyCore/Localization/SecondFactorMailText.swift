/// The words of the mails about an account's second factor (its authenticator app and
/// recovery codes): turned on, turned off by the owner or by the operator, and a recovery
/// code used.
///
/// Texts that name the product, a time or a count take them as arguments, already isolated
/// for the language's direction (``SupportedLanguage/isolated(_:)``).
package struct SecondFactorMailText: Sendable {
    /// The opening line.
    package let greeting: String
    /// The subject (also the HTML title) when two-step sign-in was turned on.
    package let enabledSubject: @Sendable (_ product: String) -> String
    /// That two-step sign-in was turned on for the reader's account on `date` at `time` (UTC):
    /// signing in now needs a code from the authenticator app.
    package let enabled: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// The subject when two-step sign-in was turned off, by the owner or the operator.
    package let disabledSubject: @Sendable (_ product: String) -> String
    /// That the owner turned two-step sign-in off on `date` at `time` (UTC).
    package let disabled: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// That the product's support turned it off (`latchkey users tfa-reset`) on `date` at `time`
    /// (UTC), as asked by someone who lost their authenticator app; the recovery codes are void.
    package let removedByOperator: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// That it can be turned on again from the account's settings.
    package let enrolAgain: String
    /// The subject when a recovery code was used.
    package let recoveryCodeSubject: @Sendable (_ product: String) -> String
    /// That a recovery code was used to sign in (or to change two-step sign-in) on `date` at
    /// `time` (UTC), and can never be used again.
    package let recoveryCodeUsed: @Sendable (_ product: String, _ date: String, _ time: String) -> String
    /// How many recovery codes are left (`count`: 0 to 9), and with few left, to make new ones.
    package let remaining: @Sendable (_ count: Int) -> String
    /// What to do if the reader did not do this: someone knows the password; reset it now.
    package let ifNotYou: String
    /// What to do if the reader did not ask support to turn it off: contact support at once.
    package let ifNotYouOperator: @Sendable (_ product: String) -> String
}

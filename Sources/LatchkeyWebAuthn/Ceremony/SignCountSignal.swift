/// What an assertion's signature counter says (W3C Web Authentication Level 3 §6.1.1), as a
/// signal for the caller to act on — log it, notify the owner — never a refusal: synced
/// passkeys keep no counter, some authenticators reset theirs, and a clone that signs first
/// would lock the real owner out as surely as the clone.
package enum SignCountSignal: Sendable, Hashable {
    /// Both the stored and the received counter are 0: the authenticator keeps no counter.
    case notKept
    /// The received counter is greater than the stored one, as it should be.
    case advanced
    /// The received counter is not greater than the stored one, and one of them is not 0:
    /// the authenticator may have been cloned (or its counter reset).
    case didNotAdvance
}

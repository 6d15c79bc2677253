package import LatchkeyCrypto

/// Estimates how hard a password is to guess, on zxcvbn's scale: 0 (trivial) to 4 (very
/// hard). The implementation lives with its C library (`LatchkeyPasswordStrength`).
package protocol PasswordStrengthEstimator: Sendable {
    /// The score of `password`, 0–4, treating `userInputs` (the account's email address and
    /// its parts) as trivially guessable words.
    func score(of password: Redacted<String>, userInputs: [String]) -> Int
}

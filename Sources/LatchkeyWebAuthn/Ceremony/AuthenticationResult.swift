package import Foundation

/// What a verified assertion established: which credential signed, and what of its record
/// to update.
package struct AuthenticationResult: Sendable, Hashable {
    /// The credential that signed.
    package let credentialID: Data
    /// The counter to store: the received one when it advanced, else the stored one (a
    /// counter that went back is never stored, so a later clone is noticed too).
    package let signCount: UInt32
    /// What the counter says (see ``SignCountSignal``).
    package let signCountSignal: SignCountSignal
    /// Whether the credential is backed up now (BS), to store.
    package let backupState: Bool
    /// Whether the authenticator verified the user (always true: Latchkey requires UV).
    package let userVerified: Bool
}

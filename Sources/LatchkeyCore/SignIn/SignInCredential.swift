package import LatchkeyCrypto

/// What a person presents to sign in, one case per kind of credential; each
/// ``SignInMethod`` takes the kinds it knows.
package enum SignInCredential: Sendable {
    /// An email address and a password, both as typed (the password is normalised by the method).
    case password(email: String, password: Redacted<String>)
}

/// What the relying party asks of the authenticator's own check of the person (Face ID, Touch
/// ID, the device passcode): WebAuthn's `userVerification`. Latchkey asks for ``required``,
/// since a passkey stands for both factors.
public enum PasskeyUserVerification: String, Sendable, Hashable {
    /// The authenticator must verify the person.
    case required
    /// The authenticator verifies the person if it can.
    case preferred
    /// The authenticator should not ask.
    case discouraged

    /// The value of a `userVerification` member: an unknown or missing one is `preferred`,
    /// WebAuthn's default (§5.4.6: unknown values are ignored).
    init(member: Any?) {
        self = (member as? String).flatMap(Self.init(rawValue:)) ?? .preferred
    }
}

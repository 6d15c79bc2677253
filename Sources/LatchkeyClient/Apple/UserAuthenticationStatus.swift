/// What a LocalAuthentication error code (`LAError.Code` raw value) means for
/// ``BiometricGate``; portable, so the Linux tests cover it.
public enum UserAuthenticationStatus {
    /// The error for `code`: cancellations (user, app, system, "enter password" fallback)
    /// → `user_authentication_failed` with `cancelled`; a failed match → `failed`; too
    /// many failures → `locked_out`; no biometrics or passcode set up → `unavailable`.
    public static func error(forCode code: Int) -> LatchkeyClientError {
        let reason =
            switch code {
            case -2, -3, -4, -9: "cancelled"  // userCancel, userFallback, systemCancel, appCancel
            case -1: "failed"  // authenticationFailed
            case -8: "locked_out"  // biometryLockout
            case -5, -6, -7: "unavailable"  // passcodeNotSet, biometryNotAvailable, biometryNotEnrolled
            default: "error \(code)"
            }
        return LatchkeyClientError(.userAuthenticationFailed, reasons: [reason])
    }
}

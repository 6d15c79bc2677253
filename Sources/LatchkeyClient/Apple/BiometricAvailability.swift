import Foundation

/// What the device offers for ``BiometricGate`` right now, from LocalAuthentication's
/// answers (`canEvaluatePolicy(_:error:)` and `biometryType`); portable, so the Linux
/// tests cover the mapping. A screen shows "Use Face ID" only for ``available(_:)`` with
/// ``BiometryKind/faceID``, and asks for nothing when the gate is ``unavailable(_:)``.
public enum BiometricAvailability: Sendable, Equatable {
    /// The check can run; the kind of biometrics it uses (``BiometryKind/none``: the
    /// device passcode only).
    case available(BiometryKind)
    /// The check cannot run: `user_authentication_failed` with `unavailable` (no passcode
    /// set, no biometrics, none enrolled) or `locked_out` (too many failed attempts).
    case unavailable(LatchkeyClientError)

    /// The availability for `canEvaluatePolicy`'s result, the `LAError` code it reported
    /// and the context's `biometryType` raw value (set only after that call).
    public init(canEvaluate: Bool, errorCode: Int?, biometryTypeRawValue: Int) {
        if canEvaluate {
            self = .available(BiometryKind(biometryTypeRawValue: biometryTypeRawValue))
        } else {
            self = .unavailable(UserAuthenticationStatus.error(forCode: errorCode ?? -6))
        }
    }

    /// `reason` as the sentence the system shows, or an error: LocalAuthentication raises
    /// `NSInvalidArgumentException` (it crashes the app) for an empty reason.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`empty_reason`).
    public static func checkedReason(_ reason: String) throws -> String {
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["empty_reason"])
        }
        return reason
    }
}

/// The biometrics a device has (`LABiometryType`).
public enum BiometryKind: Sendable, Equatable {
    /// None (or the device passcode only).
    case none
    /// Touch ID.
    case touchID
    /// Face ID.
    case faceID
    /// Optic ID.
    case opticID

    /// The kind for an `LABiometryType` raw value (0 none, 1 Touch ID, 2 Face ID, 4 Optic ID).
    public init(biometryTypeRawValue: Int) {
        switch biometryTypeRawValue {
        case 1: self = .touchID
        case 2: self = .faceID
        case 4: self = .opticID
        default: self = .none
        }
    }
}

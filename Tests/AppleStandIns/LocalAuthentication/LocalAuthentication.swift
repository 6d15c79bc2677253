// Stand-in for the subset of LocalAuthentication the SDK calls, copied from Apple's
// declarations (LAContext.h, LAError.h and their Swift documentation): names, labels,
// types, optionality, availability; `LAContext` is not Sendable. Bodies are never run.
@_exported public import AppleFoundation
public import Security

/// `LAPolicy` (iOS 8.0, macOS 10.10).
@available(iOS 8.0, macOS 10.10, *)
public enum LAPolicy: Int, @unchecked Sendable {
    /// Biometrics only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, Apple Watch or the device passcode.
    case deviceOwnerAuthentication = 2
}

/// `LAAccessControlOperation` (iOS 9.0, macOS 10.11).
@available(iOS 9.0, macOS 10.11, *)
public enum LAAccessControlOperation: Int, @unchecked Sendable {
    /// Creating an item.
    case createItem = 0
    /// Using (reading) an item.
    case useItem = 1
    /// Creating a key.
    case createKey = 2
    /// Signing with a key.
    case useKeySign = 3
    /// Decrypting with a key.
    case useKeyDecrypt = 4
    /// A key exchange.
    case useKeyKeyExchange = 5
}

/// `LABiometryType` (iOS 11.0, macOS 10.13.2).
@available(iOS 11.0, macOS 10.13.2, *)
public enum LABiometryType: Int, @unchecked Sendable {
    /// No biometry.
    case none = 0
    /// Touch ID.
    case touchID = 1
    /// Face ID.
    case faceID = 2
    /// Optic ID (iOS 17.0).
    @available(iOS 17.0, macOS 14.0, *) case opticID = 4
}

/// `LAError` (iOS 8.0, macOS 10.10).
@available(iOS 8.0, macOS 10.10, *)
public struct LAError: Error, Hashable {
    /// `LAError.Code`.
    public enum Code: Int, @unchecked Sendable {
        /// The person failed to provide valid credentials.
        case authenticationFailed = -1
        /// The person cancelled.
        case userCancel = -2
        /// The person tapped the fallback button.
        case userFallback = -3
        /// The system cancelled (another app came forward).
        case systemCancel = -4
        /// No passcode is set.
        case passcodeNotSet = -5
        /// Biometry is not available.
        case biometryNotAvailable = -6
        /// No biometry is enrolled.
        case biometryNotEnrolled = -7
        /// Too many failed biometry attempts.
        case biometryLockout = -8
        /// The app cancelled (`invalidate()`).
        case appCancel = -9
        /// The context was invalidated.
        case invalidContext = -10
        /// UI was needed but `interactionNotAllowed` is set.
        case notInteractive = -1004
    }

    /// The error's code.
    public var code: Code { standIn() }
}

/// `LAContext` (iOS 8.0, macOS 10.10): not Sendable.
@available(iOS 8.0, macOS 10.10, *)
open class LAContext: NSObject {
    /// A new context.
    public override init() { standIn() }

    /// `canEvaluatePolicy(_:error:)`: never shows UI.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { standIn() }

    /// `evaluatePolicy(_:localizedReason:) async throws -> Bool`.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { standIn() }

    /// `evaluateAccessControl(_:operation:localizedReason:) async throws -> Bool` (iOS 9.0, macOS 10.11).
    @available(iOS 9.0, macOS 10.11, *)
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String
    ) async throws -> Bool { standIn() }

    /// `invalidate()` (iOS 9.0, macOS 10.11).
    @available(iOS 9.0, macOS 10.11, *)
    open func invalidate() { standIn() }

    /// `interactionNotAllowed` (iOS 11.0, macOS 10.13).
    @available(iOS 11.0, macOS 10.13, *)
    open var interactionNotAllowed: Bool {
        get { standIn() }
        set { standIn() }
    }

    /// `biometryType` (iOS 11.0, macOS 10.13.2): set only after `canEvaluatePolicy(_:error:)`.
    @available(iOS 11.0, macOS 10.13.2, *)
    open var biometryType: LABiometryType { standIn() }

    /// `evaluatedPolicyDomainState` (iOS 9.0–18.0, macOS 10.11–15.0): non-nil after
    /// `canEvaluatePolicy(_:error:)` succeeds for a biometric policy.
    @available(iOS, introduced: 9.0, deprecated: 18.0)
    @available(macOS, introduced: 10.11, deprecated: 15.0)
    open var evaluatedPolicyDomainState: Data? { standIn() }
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

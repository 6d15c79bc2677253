#if os(iOS) || os(macOS)
    import LocalAuthentication

    /// Asks for Face ID, Touch ID or the device passcode before a sensitive step, such as
    /// setting a new password from a reset link on a device someone else may hold.
    ///
    /// It guards the app's own screens and nothing more: it is **not** a security
    /// boundary. The same reset link opens Latchkey's web page in Safari, where no gate
    /// runs; what protects the account is that the link reaches only the mailbox. The app
    /// must declare `NSFaceIDUsageDescription` in its Info.plist, or iOS ends it the first
    /// time Face ID is asked for.
    ///
    /// Decisions (the reason check, what availability means, how errors map) are
    /// ``BiometricAvailability``'s and ``UserAuthenticationStatus``'s; this type only calls
    /// `LAContext`.
    public struct BiometricGate: Sendable {
        /// Which check the system runs.
        public enum Policy: Sendable {
            /// Biometrics, falling back to the passcode.
            case biometricsOrPasscode
            /// Biometrics only.
            case biometricsOnly
        }

        /// The check to run.
        public let policy: Policy
        /// The sentence the system shows, saying why; must not be empty.
        public let reason: String

        /// A gate running `policy` with `reason`.
        public init(policy: Policy = .biometricsOrPasscode, reason: String) {
            self.policy = policy
            self.reason = reason
        }

        /// What the device offers for the policy now (`canEvaluatePolicy(_:error:)`, then
        /// `biometryType`, which is set only after that call).
        public func availability() -> BiometricAvailability {
            let attempt = Attempt()
            var error: NSError?
            let canEvaluate = attempt.context.canEvaluatePolicy(laPolicy, error: &error)
            return BiometricAvailability(
                canEvaluate: canEvaluate, errorCode: error?.code, biometryTypeRawValue: Int(attempt.context.biometryType.rawValue))
        }

        /// Returns when the person passed the check. Cancelling the calling task
        /// invalidates the context, which closes the system sheet.
        ///
        /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`empty_reason`);
        ///   `user_authentication_failed` with the reason from
        ///   ``UserAuthenticationStatus/error(forCode:)`` (also when the check cannot run:
        ///   see ``availability()``); `CancellationError`.
        public func authenticate() async throws {
            let reason = try BiometricAvailability.checkedReason(reason)
            let attempt = Attempt()
            var error: NSError?
            guard attempt.context.canEvaluatePolicy(laPolicy, error: &error) else {
                throw UserAuthenticationStatus.error(forCode: error?.code ?? LAError.Code.biometryNotAvailable.rawValue)
            }
            try await withTaskCancellationHandler {
                do {
                    guard try await attempt.context.evaluatePolicy(laPolicy, localizedReason: reason) else {
                        throw UserAuthenticationStatus.error(forCode: LAError.Code.authenticationFailed.rawValue)
                    }
                } catch let error as LAError {
                    if Task.isCancelled { throw CancellationError() }
                    throw UserAuthenticationStatus.error(forCode: error.code.rawValue)
                }
            } onCancel: {
                attempt.context.invalidate()
            }
        }

        private var laPolicy: LAPolicy {
            policy == .biometricsOnly ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
        }
    }

    /// One `LAContext`, shared by an evaluation and the cancellation handler that
    /// invalidates it.
    // `LAContext` is not Sendable; `invalidate()` is the only call made from another thread.
    private final class Attempt: @unchecked Sendable {
        let context = LAContext()
    }
#endif

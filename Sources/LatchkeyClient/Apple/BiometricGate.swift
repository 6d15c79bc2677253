#if canImport(LocalAuthentication)
    import LocalAuthentication

    /// Asks for Face ID, Touch ID or the device passcode before a sensitive step, such as
    /// setting a new password from a reset link on a device someone else may hold.
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
        /// The sentence the system shows, saying why.
        public let reason: String

        /// A gate running `policy` with `reason`.
        public init(policy: Policy = .biometricsOrPasscode, reason: String) {
            self.policy = policy
            self.reason = reason
        }

        /// Returns when the person passed the check.
        ///
        /// - Throws: ``LatchkeyClientError`` `user_authentication_failed` with the reason
        ///   from ``UserAuthenticationStatus/error(forCode:)``.
        public func authenticate() async throws {
            let context = LAContext()
            let laPolicy: LAPolicy =
                policy == .biometricsOnly ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
            do {
                guard try await context.evaluatePolicy(laPolicy, localizedReason: reason) else {
                    throw UserAuthenticationStatus.error(forCode: LAError.Code.authenticationFailed.rawValue)
                }
            } catch let error as LAError {
                throw UserAuthenticationStatus.error(forCode: error.code.rawValue)
            }
        }
    }
#endif

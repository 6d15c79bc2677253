/// The protection a Keychain item is added with: when it can be read, and whether reading
/// needs the person. Protections are ordered (``isAtLeast(_:)``), so a change that would
/// weaken one is recognised and made only when asked for
/// (``KeychainTokenStore/changeProtection(allowingWeaker:)``).
public struct KeychainProtection: Sendable, Hashable, CustomStringConvertible {
    /// When the item can be read.
    public let accessibility: KeychainOptions.Accessibility
    /// Whether reading it needs the person.
    public let userPresence: KeychainOptions.UserPresence

    /// The protection of `accessibility` and `userPresence`.
    public init(accessibility: KeychainOptions.Accessibility, userPresence: KeychainOptions.UserPresence) {
        self.accessibility = accessibility
        self.userPresence = userPresence
    }

    /// What the device must have set up before an item can be added with a protection.
    public enum DeviceRequirement: Sendable, Equatable {
        /// A device passcode.
        case passcode
        /// Enrolled biometrics.
        case enrolledBiometrics
    }

    /// Whether reading the item needs an authenticated context (Face ID, Touch ID, passcode).
    public var needsUserPresence: Bool { userPresence != .none }

    /// What the device must have for this protection: enrolled biometrics for
    /// `biometryCurrentSet`, a passcode for `userPresence` or `whenPasscodeSetThisDeviceOnly`;
    /// nil when nothing.
    public var deviceRequirement: DeviceRequirement? {
        switch userPresence {
        case .biometryCurrentSet: .enrolledBiometrics
        case .userPresence: .passcode
        case .none: accessibility == .whenPasscodeSetThisDeviceOnly ? .passcode : nil
        }
    }

    /// Whether this protection is at least as strict as `other` in every respect: when the
    /// item can be read (after first unlock < while unlocked < only with a passcode),
    /// whether it may leave the device (in a backup < this device only), and who must be
    /// present (nobody < biometrics or passcode < the biometrics enrolled now).
    public func isAtLeast(_ other: KeychainProtection) -> Bool {
        Self.availability(accessibility) >= Self.availability(other.accessibility)
            && (accessibility.isThisDeviceOnly || !other.accessibility.isThisDeviceOnly)
            && Self.presence(userPresence) >= Self.presence(other.userPresence)
    }

    /// `accessibility/userPresence`, e.g. `whenUnlockedThisDeviceOnly/none`.
    public var description: String { "\(accessibility.rawValue)/\(userPresence.rawValue)" }

    /// Checks the protection can be given: user presence needs a *ThisDeviceOnly*
    /// accessibility (`SecAccessControlCreateWithFlags` refuses the others).
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` (`user_presence_needs_this_device_only`).
    func validated() throws -> KeychainProtection {
        if needsUserPresence, !accessibility.isThisDeviceOnly {
            throw LatchkeyClientError(.invalidConfiguration, reasons: ["user_presence_needs_this_device_only"])
        }
        return self
    }

    private static func availability(_ accessibility: KeychainOptions.Accessibility) -> Int {
        switch accessibility {
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: 0
        case .whenUnlocked, .whenUnlockedThisDeviceOnly: 1
        case .whenPasscodeSetThisDeviceOnly: 2
        }
    }

    private static func presence(_ presence: KeychainOptions.UserPresence) -> Int {
        switch presence {
        case .none: 0
        case .userPresence: 1
        case .biometryCurrentSet: 2
        }
    }
}

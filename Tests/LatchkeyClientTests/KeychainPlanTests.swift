import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// The Keychain decisions, checked where they are made: in portable code.
@Suite struct KeychainPlanTests {
    @Test("by default the item is this-device-only while unlocked, never synchronized, identified by service and account")
    func defaults() throws {
        let plan = try KeychainQueryPlan(options: KeychainOptions())
        #expect(plan.options.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(plan.identity == [
            .classGenericPassword, .service("dev.latchkey.tokens"), .account("default"), .notSynchronizable, .dataProtectionKeychain,
        ])
        #expect(plan.addAttributes == plan.identity + [
            .accessible(.whenUnlockedThisDeviceOnly), .protectionTag("latchkey-protection-1 whenUnlockedThisDeviceOnly none"),
        ])
        #expect(plan.loadQuery == plan.identity + [.returnData, .matchLimitOne])
    }

    @Test("a protection that needs a passcode or enrolled biometrics says so, so a replace checks before deleting")
    func deviceRequirements() throws {
        func requirement(_ accessibility: KeychainOptions.Accessibility, _ presence: KeychainOptions.UserPresence) throws
            -> KeychainQueryPlan.DeviceRequirement?
        {
            try KeychainQueryPlan(options: KeychainOptions(accessibility: accessibility, userPresence: presence)).deviceRequirement
        }
        #expect(try requirement(.whenUnlockedThisDeviceOnly, .none) == nil)
        #expect(try requirement(.afterFirstUnlock, .none) == nil)
        #expect(try requirement(.whenPasscodeSetThisDeviceOnly, .none) == .passcode)
        #expect(try requirement(.whenUnlockedThisDeviceOnly, .userPresence) == .passcode)
        #expect(try requirement(.whenPasscodeSetThisDeviceOnly, .biometryCurrentSet) == .enrolledBiometrics)
    }

    @Test("the audit reads attributes only, never the data, and can never show a prompt")
    func audit() throws {
        for presence in KeychainOptions.UserPresence.allCases {
            let plan = try KeychainQueryPlan(options: KeychainOptions(userPresence: presence))
            #expect(plan.auditQuery == plan.identity + [.returnAttributes, .matchLimitOne, .noInteraction])
            #expect(!plan.auditQuery.contains(.returnData))
            #expect(!plan.auditQuery.contains(.authenticationContext))
        }
    }

    @Test("each protection has its own tag, so a change of options is noticed")
    func protectionTags() throws {
        var tags = Set<String>()
        for accessibility in KeychainOptions.Accessibility.allCases where accessibility.isThisDeviceOnly {
            for presence in KeychainOptions.UserPresence.allCases {
                tags.insert(try KeychainQueryPlan(options: KeychainOptions(accessibility: accessibility, userPresence: presence)).protectionTag)
            }
        }
        #expect(tags.count == 3 * 3)
        // Service, account and prompt are not protection: they do not change the tag.
        #expect(try KeychainQueryPlan(options: KeychainOptions(service: "s", authenticationPrompt: "p")).protectionTag
            == KeychainQueryPlan(options: KeychainOptions()).protectionTag)
    }

    @Test("loading reads an item with the current protection, migrates one with other (or no) protection, wipes after a reinstall")
    func loadActions() throws {
        let plan = try KeychainQueryPlan(options: KeychainOptions(accessibility: .afterFirstUnlockThisDeviceOnly))
        let wiping = try KeychainQueryPlan(options: KeychainOptions(wipeOnReinstall: true))
        let faceID = try KeychainQueryPlan(options: KeychainOptions(userPresence: .biometryCurrentSet))
        let current = plan.protectionTag
        #expect(plan.loadAction(for: current, isFirstLaunchAfterInstall: false) == .read)
        #expect(plan.loadAction(for: current, isFirstLaunchAfterInstall: true) == .read)  // wipe not asked for
        #expect(plan.loadAction(for: wiping.protectionTag, isFirstLaunchAfterInstall: false) == .migrate)
        #expect(plan.loadAction(for: nil, isFirstLaunchAfterInstall: false) == .migrate)  // written by an earlier SDK
        #expect(wiping.loadAction(for: wiping.protectionTag, isFirstLaunchAfterInstall: true) == .wipe)
        #expect(wiping.loadAction(for: faceID.protectionTag, isFirstLaunchAfterInstall: true) == .wipe)
        // Turning Face ID on or off migrates the item both ways.
        #expect(faceID.loadAction(for: wiping.protectionTag, isFirstLaunchAfterInstall: false) == .migrate)
        #expect(wiping.loadAction(for: faceID.protectionTag, isFirstLaunchAfterInstall: false) == .migrate)
    }

    @Test("saving adds a new item, updates a plain one in place, and replaces an access-controlled or differently protected one")
    func saveMethods() throws {
        let plain = try KeychainQueryPlan(options: KeychainOptions())
        let faceID = try KeychainQueryPlan(options: KeychainOptions(userPresence: .userPresence))
        #expect(plain.saveMethod(over: .absent) == .add)
        #expect(faceID.saveMethod(over: .absent) == .add)
        #expect(plain.saveMethod(over: .present(protectionTag: plain.protectionTag)) == .update)
        // SecItemUpdate on an access-controlled item asks for Face ID: delete + add instead.
        #expect(faceID.saveMethod(over: .present(protectionTag: faceID.protectionTag)) == .replace)
        #expect(plain.saveMethod(over: .present(protectionTag: faceID.protectionTag)) == .replace)
        #expect(plain.saveMethod(over: .present(protectionTag: nil)) == .replace)
    }

    @Test("an access group is part of every query")
    func accessGroup() throws {
        let plan = try KeychainQueryPlan(options: KeychainOptions(accessGroup: "TEAMID.dev.latchkey.shared"))
        #expect(plan.identity.contains(.accessGroup("TEAMID.dev.latchkey.shared")))
        #expect(plan.loadQuery.contains(.accessGroup("TEAMID.dev.latchkey.shared")))
        #expect(plan.addAttributes.contains(.accessGroup("TEAMID.dev.latchkey.shared")))
    }

    @Test("user presence replaces kSecAttrAccessible with an access control carrying the flag", arguments: [
        KeychainOptions.UserPresence.biometryCurrentSet, .userPresence,
    ])
    func userPresence(presence: KeychainOptions.UserPresence) throws {
        let plan = try KeychainQueryPlan(options: KeychainOptions(
            accessibility: .whenPasscodeSetThisDeviceOnly, userPresence: presence, authenticationPrompt: "Sign in to Example"))
        #expect(plan.addAttributes.contains(.accessControl(.whenPasscodeSetThisDeviceOnly, presence)))
        #expect(!plan.addAttributes.contains { if case .accessible = $0 { true } else { false } })
        // Reads go through the store's one authentication context; delete and add never ask.
        #expect(plan.loadQuery.last == .authenticationContext)
        #expect(!plan.identity.contains(.authenticationContext))
        #expect(!plan.addAttributes.contains(.authenticationContext))
    }

    @Test("user presence with an accessibility that lets the item leave the device is refused", arguments: [
        KeychainOptions.Accessibility.whenUnlocked, .afterFirstUnlock,
    ])
    func presenceNeedsThisDeviceOnly(accessibility: KeychainOptions.Accessibility) {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["user_presence_needs_this_device_only"])) {
            try KeychainQueryPlan(options: KeychainOptions(accessibility: accessibility, userPresence: .biometryCurrentSet))
        }
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["empty_identity"])) {
            try KeychainQueryPlan(options: KeychainOptions(service: ""))
        }
    }

    @Test("Keychain statuses map to the SDK's errors; locked is never mistaken for absent", arguments: [
        (KeychainStatus.interactionNotAllowed, LatchkeyClientError(.tokenStoreLocked, reasons: ["device_locked"])),
        (KeychainStatus.userCanceled, LatchkeyClientError(.userAuthenticationFailed, reasons: ["cancelled"])),
        (KeychainStatus.authFailed, LatchkeyClientError(.userAuthenticationFailed, reasons: ["failed"])),
        (KeychainStatus.missingEntitlement, LatchkeyClientError(.invalidConfiguration, reasons: ["missing_entitlement"])),
        (KeychainStatus.param, LatchkeyClientError(.invalidConfiguration, reasons: ["invalid_keychain_query"])),
        (KeychainStatus.decode, LatchkeyClientError(.tokenStoreCorrupted)),
        (Int32(-25291), LatchkeyClientError(.tokenStoreFailed, reasons: ["osstatus -25291"])),
    ] as [(Int32, LatchkeyClientError)])
    func statuses(status: Int32, expected: LatchkeyClientError) {
        #expect(KeychainStatus.error(for: status) == expected)
    }

    @Test("success is no error, and a locked keychain is retryable")
    func successAndLocked() {
        #expect(KeychainStatus.error(for: KeychainStatus.success) == nil)
        #expect(KeychainStatus.error(for: KeychainStatus.interactionNotAllowed)?.kind == .retryable)
        #expect(KeychainStatus.itemNotFound == -25300)
    }

    @Test("the reinstall marker is a file: first launch until marked (a failed wipe is retried), per item, 0600 in a 0700 directory")
    func reinstallMarker() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let files = KeychainSupportFiles(container: temporary.url.appendingPathComponent("group"), options: KeychainOptions(service: "s", account: "a"))
        let marker = ReinstallMarker(file: files.installMarker)
        #expect(marker.isFirstLaunchAfterInstall)
        #expect(marker.isFirstLaunchAfterInstall)
        try files.prepareDirectory()
        try marker.markInstalled()
        try marker.markInstalled()
        #expect(!marker.isFirstLaunchAfterInstall)
        #expect(!ReinstallMarker(file: files.installMarker).isFirstLaunchAfterInstall)
        let other = KeychainSupportFiles(container: temporary.url.appendingPathComponent("group"), options: KeychainOptions(service: "s", account: "b"))
        #expect(ReinstallMarker(file: other.installMarker).isFirstLaunchAfterInstall)
        let mode = { (url: URL) in try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) }
        #expect(try mode(files.directory) == 0o700)
        #expect(try mode(files.installMarker) == 0o600)
    }

    @Test("support files live in a Latchkey directory of the container, one pair per item, names never shared")
    func supportFiles() {
        let container = URL(fileURLWithPath: "/group")
        let files = KeychainSupportFiles(container: container, options: KeychainOptions(service: "dev.latchkey.tokens", account: "default"))
        #expect(files.directory.path == "/group/Latchkey")
        #expect(files.lockFile.lastPathComponent == "dev%2Elatchkey%2Etokens.default.lock")
        #expect(files.installMarker.lastPathComponent == "dev%2Elatchkey%2Etokens.default.installed")
        let first = KeychainSupportFiles(container: container, options: KeychainOptions(service: "a.b", account: "c"))
        let second = KeychainSupportFiles(container: container, options: KeychainOptions(service: "a", account: "b.c"))
        #expect(first.lockFile != second.lockFile)
        let traversal = KeychainSupportFiles(container: container, options: KeychainOptions(service: "../..", account: "x/y"))
        #expect(traversal.lockFile.deletingLastPathComponent() == files.directory)
    }

    @Test("LocalAuthentication codes map to user_authentication_failed with a reason", arguments: [
        (-2, "cancelled"), (-3, "cancelled"), (-4, "cancelled"), (-9, "cancelled"), (-1, "failed"),
        (-8, "locked_out"), (-5, "unavailable"), (-6, "unavailable"), (-7, "unavailable"), (-10, "error -10"),
    ])
    func localAuthentication(code: Int, reason: String) {
        #expect(UserAuthenticationStatus.error(forCode: code) == LatchkeyClientError(.userAuthenticationFailed, reasons: [reason]))
    }

    @Test("the gate's availability: the biometry kind when it can run, the reason when it cannot", arguments: [
        (true, nil, 2, BiometricAvailability.available(.faceID)),
        (true, nil, 1, .available(.touchID)),
        (true, nil, 4, .available(.opticID)),
        (true, nil, 0, .available(.none)),
        (false, -7, 2, .unavailable(LatchkeyClientError(.userAuthenticationFailed, reasons: ["unavailable"]))),
        (false, -5, 0, .unavailable(LatchkeyClientError(.userAuthenticationFailed, reasons: ["unavailable"]))),
        (false, -8, 2, .unavailable(LatchkeyClientError(.userAuthenticationFailed, reasons: ["locked_out"]))),
    ] as [(Bool, Int?, Int, BiometricAvailability)])
    func biometricAvailability(canEvaluate: Bool, code: Int?, biometry: Int, expected: BiometricAvailability) {
        #expect(BiometricAvailability(canEvaluate: canEvaluate, errorCode: code, biometryTypeRawValue: biometry) == expected)
    }

    @Test("an empty reason is refused before LocalAuthentication sees it (it would raise and end the app)", arguments: ["", "  \n"])
    func emptyReason(reason: String) throws {
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: ["empty_reason"])) {
            try BiometricAvailability.checkedReason(reason)
        }
        #expect(try BiometricAvailability.checkedReason("Confirm it is you") == "Confirm it is you")
    }
}

import Foundation
import LatchkeyClient
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
        #expect(plan.addAttributes == plan.identity + [.accessible(.whenUnlockedThisDeviceOnly)])
        #expect(plan.loadQuery == plan.identity + [.returnData, .matchLimitOne])
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
        #expect(plan.addAttributes.last == .accessControl(.whenPasscodeSetThisDeviceOnly, presence))
        #expect(!plan.addAttributes.contains { if case .accessible = $0 { true } else { false } })
        #expect(plan.loadQuery.last == .authenticationPrompt("Sign in to Example"))
        // Update and delete address the item without asking for the person.
        #expect(!plan.identity.contains(.authenticationPrompt("Sign in to Example")))
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

    @Test("the reinstall marker reports the first launch until it is marked (a failed wipe is retried), per item")
    func reinstallMarker() throws {
        let suite = "latchkey-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let marker = ReinstallMarker(defaults: defaults, service: "s", account: "a")
        #expect(marker.isFirstLaunchAfterInstall)
        #expect(marker.isFirstLaunchAfterInstall)
        marker.markInstalled()
        #expect(!marker.isFirstLaunchAfterInstall)
        #expect(!ReinstallMarker(defaults: defaults, service: "s", account: "a").isFirstLaunchAfterInstall)
        #expect(ReinstallMarker(defaults: defaults, service: "s", account: "b").isFirstLaunchAfterInstall)
    }

    @Test("LocalAuthentication codes map to user_authentication_failed with a reason", arguments: [
        (-2, "cancelled"), (-3, "cancelled"), (-4, "cancelled"), (-9, "cancelled"), (-1, "failed"),
        (-8, "locked_out"), (-5, "unavailable"), (-6, "unavailable"), (-7, "unavailable"), (-10, "error -10"),
    ])
    func localAuthentication(code: Int, reason: String) {
        #expect(UserAuthenticationStatus.error(forCode: code) == LatchkeyClientError(.userAuthenticationFailed, reasons: [reason]))
    }
}

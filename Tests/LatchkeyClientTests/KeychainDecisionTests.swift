import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// The Keychain and LocalAuthentication decisions outside the store: status codes, file
/// names, the installation date, device security, the Face ID gate. (The store: KeychainStoreTests.)
@Suite struct KeychainDecisionTests {
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

    @Test("the installation date is the home directory's creation; an app extension has none")
    func installationDate() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let created = try #require(FileManager.default.attributesOfItem(atPath: temporary.url.path)[.creationDate] as? Date)
        #expect(KeychainSupportFiles.installationDate(bundleURL: URL(fileURLWithPath: "/Apps/Example.app"), home: temporary.url) == created)
        #expect(KeychainSupportFiles.installationDate(bundleURL: URL(fileURLWithPath: "/Apps/Example.app/PlugIns/Widget.appex"), home: temporary.url) == nil)
        #expect(KeychainSupportFiles.installationDate(bundleURL: URL(fileURLWithPath: "/Apps/Example.app"), home: temporary.url.appendingPathComponent("gone")) == nil)
    }

    @Test("device security from LocalAuthentication's answers: a lockout keeps the enrollment; no state without biometrics")
    func deviceSecurity() {
        #expect(DeviceSecurity(ownerPolicy: true, biometricPolicy: true, biometricErrorCode: nil, domainState: Data([1]))
            == DeviceSecurity(passcodeSet: true, biometryEnrolled: true, biometryState: Data([1])))
        #expect(DeviceSecurity(ownerPolicy: true, biometricPolicy: false, biometricErrorCode: -8, domainState: Data([1]))
            == DeviceSecurity(passcodeSet: true, biometryEnrolled: true, biometryState: nil))
        #expect(DeviceSecurity(ownerPolicy: false, biometricPolicy: false, biometricErrorCode: -7, domainState: nil)
            == DeviceSecurity(passcodeSet: false, biometryEnrolled: false, biometryState: nil))
    }

    @Test("the lock file lives in a Latchkey directory of the container, one per item, names never shared")
    func supportFiles() {
        let container = URL(fileURLWithPath: "/group")
        let files = KeychainSupportFiles(container: container, options: KeychainOptions(service: "dev.latchkey.tokens", account: "default"))
        #expect(files.directory.path == "/group/Latchkey")
        #expect(files.lockFile.lastPathComponent == "dev%2Elatchkey%2Etokens.default.lock")
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

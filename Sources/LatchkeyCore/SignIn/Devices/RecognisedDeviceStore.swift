package import Foundation

/// Where recognised devices are kept: for each account, the SHA-256 digests (hex) of the
/// device tokens it signed in with, the credential version each was recorded under and when
/// each was last used. Never the tokens themselves.
package protocol RecognisedDeviceStore: Sendable {
    /// Whether `tokenDigest` names a device of `accountID` recorded under `credentialVersion`
    /// and used to sign in at or after `usedSince`.
    func isRecognisedDevice(accountID: String, tokenDigest: String, credentialVersion: Int, usedSince: Date) throws -> Bool

    /// Records a sign-in of `accountID` (now at `credentialVersion`) at `now` from a device, in
    /// one transaction: the device is `presentedDigest` when some account already has that
    /// digest (a token this server issued), else `freshDigest`. Its row for the account is
    /// created or renewed (version, last use); then the account keeps only its `keep` most
    /// recently used devices and none last used before `expiredBefore`. Tells which digest was
    /// used and whether the device was recognised (already the account's, under this version,
    /// used since `expiredBefore`) and whether the account had any device row before.
    func recordDeviceSignIn(
        accountID: String, credentialVersion: Int, presentedDigest: String?, freshDigest: String, now: Date,
        expiredBefore: Date, keep: Int
    ) throws -> DeviceSignInRecord
}

/// What recording a sign-in found, see ``RecognisedDeviceStore/recordDeviceSignIn(accountID:credentialVersion:presentedDigest:freshDigest:now:expiredBefore:keep:)``.
package struct DeviceSignInRecord: Sendable, Equatable {
    /// Whether the presented token was kept (false: the fresh one was recorded).
    package let keptPresented: Bool
    /// Whether the device was already a recognised device of the account.
    package let wasRecognised: Bool
    /// Whether the account had signed in from any device (recognised or not) before.
    package let accountHadDevices: Bool

    /// Creates a record.
    package init(keptPresented: Bool, wasRecognised: Bool, accountHadDevices: Bool) {
        self.keptPresented = keptPresented
        self.wasRecognised = wasRecognised
        self.accountHadDevices = accountHadDevices
    }
}

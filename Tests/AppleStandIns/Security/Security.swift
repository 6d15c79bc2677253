// Stand-in for the subset of Security the SDK calls, copied from Apple's declarations
// (SecItem.h, SecAccessControl.h, SecTrust.h, SecCertificate.h and their Swift documentation):
// names, labels, types, optionality and availability. Bodies are never run. Imported C
// globals (`kSec…`) are usable from any isolation on Apple platforms: here `nonisolated(unsafe)`.
@_exported public import AppleCoreFoundation

// MARK: SecItem (SecItem.h)

/// `SecItemCopyMatching(_:_:)` (iOS 2.0, macOS 10.6).
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { standIn() }
/// `SecItemAdd(_:_:)` (iOS 2.0, macOS 10.6).
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { standIn() }
/// `SecItemUpdate(_:_:)` (iOS 2.0, macOS 10.6).
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { standIn() }
/// `SecItemDelete(_:)` (iOS 2.0, macOS 10.6).
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { standIn() }

/// `kSecClass`.
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// `kSecClassGenericPassword`.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// `kSecAttrService`.
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// `kSecAttrAccount`.
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// `kSecAttrAccessGroup`.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// `kSecAttrSynchronizable` (iOS 7.0, macOS 10.9).
@available(iOS 7.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// `kSecAttrGeneric`.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
/// `kSecAttrCreationDate`.
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
/// `kSecAttrAccessible` (iOS 4.0, macOS 10.9).
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// `kSecAttrAccessibleWhenUnlocked`.
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `kSecAttrAccessibleAfterFirstUnlock`.
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (iOS 8.0, macOS 10.10).
@available(iOS 8.0, macOS 10.10, *) nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `kSecAttrAccessControl` (iOS 8.0, macOS 10.10).
@available(iOS 8.0, macOS 10.10, *) nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
/// `kSecValueData`.
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// `kSecReturnData`.
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// `kSecReturnAttributes`.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// `kSecMatchLimit`.
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// `kSecMatchLimitAll`.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// `kSecMatchLimitOne`.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `kSecUseAuthenticationContext` (iOS 9.0, macOS 10.11).
@available(iOS 9.0, macOS 10.11, *) nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// `kSecUseDataProtectionKeychain` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *) nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

// MARK: SecAccessControl (SecAccessControl.h)

/// `SecAccessControl`: a CF type.
public final class SecAccessControl {
    private init() {}
}

/// `SecAccessControlCreateFlags` (iOS 8.0, macOS 10.10).
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    /// The flags as bits.
    public let rawValue: CFOptionFlags
    /// The flags for `rawValue`.
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }
    /// `.userPresence`: biometry or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// `.biometryCurrentSet` (iOS 11.3, macOS 10.13.4).
    @available(iOS 11.3, macOS 10.13.4, *) public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
}

/// `SecAccessControlCreateWithFlags(_:_:_:_:)` (iOS 8.0, macOS 10.10).
@available(iOS 8.0, macOS 10.10, *)
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { standIn() }

// MARK: SecTrust, SecCertificate (SecTrust.h, SecCertificate.h)

/// `SecTrust`: a CF type.
public final class SecTrust {
    private init() {}
}

/// `SecCertificate`: a CF type.
public final class SecCertificate {
    private init() {}
}

/// `SecTrustEvaluateWithError(_:_:)` (iOS 12.0, macOS 10.14).
@available(iOS 12.0, macOS 10.14, *)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { standIn() }

/// `SecTrustCopyCertificateChain(_:)` (iOS 15.0, macOS 12.0).
@available(iOS 15.0, macOS 12.0, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { standIn() }

/// `SecCertificateCopyData(_:)`.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { standIn() }

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

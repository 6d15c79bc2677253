// Stand-in for Foundation as Apple platforms have it: Linux's Foundation (re-exported), with
// URLSession and friends (FoundationNetworking on Linux, Foundation on Apple platforms), the
// CoreFoundation types, and the Apple-only declarations the SDK and the sample app call,
// copied from Apple's documentation. The check rewrites `import Foundation` to
// `import AppleFoundation` in the files it compiles, so an import's use is judged as on
// Apple platforms. Bodies are never run.
@_exported public import Foundation
@_exported public import FoundationNetworking
@_exported public import AppleCoreFoundation
public import Combine
public import Security

/// `NSErrorPointer`: an `AutoreleasingUnsafeMutablePointer<NSError?>?` on Apple platforms,
/// which Linux lacks; `&error` on a `var error: NSError?` passes either.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

extension FileManager {
    /// `containerURL(forSecurityApplicationGroupIdentifier:)` (iOS 7.0, macOS 10.8): nil when
    /// the group is not in the App Groups entitlement.
    @available(iOS 7.0, macOS 10.8, *)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { standIn() }
}

extension ProcessInfo {
    /// `performExpiringActivity(withReason:using:)` (iOS 8.2; not on macOS).
    @available(iOS 8.2, *)
    @available(macOS, unavailable)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) { standIn() }
}

extension URLProtectionSpace {
    /// `serverTrust` (iOS 3.0, macOS 10.6).
    public var serverTrust: SecTrust? { standIn() }
}

extension URLCredential {
    /// `init(trust:)` (iOS 3.0, macOS 10.6).
    public convenience init(trust: SecTrust) { standIn() }
}

/// `NSURLAuthenticationMethodServerTrust` (unavailable in Linux's Foundation).
public let NSURLAuthenticationMethodServerTrust: String = "NSURLAuthenticationMethodServerTrust"

/// `NSUserActivityTypeBrowsingWeb` (iOS 8.0, macOS 10.10).
public let NSUserActivityTypeBrowsingWeb: String = "NSUserActivityTypeBrowsingWeb"

/// `NSUserActivity` (iOS 8.0, macOS 10.10): the part the sample reads.
open class NSUserActivity: NSObject {
    /// `webpageURL`.
    open var webpageURL: URL? { standIn() }
}

extension NotificationCenter {
    /// `NotificationCenter.Publisher` (iOS 13.0, macOS 10.15).
    @available(iOS 13.0, macOS 10.15, *)
    public struct Publisher: Combine.Publisher {
        /// Notifications.
        public typealias Output = Notification
        /// Never fails.
        public typealias Failure = Never
    }

    /// `publisher(for:object:)` (iOS 13.0, macOS 10.15).
    @available(iOS 13.0, macOS 10.15, *)
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher { standIn() }
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

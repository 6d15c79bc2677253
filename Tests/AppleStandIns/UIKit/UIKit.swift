// Stand-in for the subset of UIKit the SDK and the sample app call, copied from Apple's
// declarations (UIApplication.h, UIWindow.h, UITextInputTraits.h and their Swift
// documentation): names, labels, types, optionality, availability, `@MainActor` and
// `nonisolated` as the SDK marks them. Bodies are never run.
@_exported public import AppleFoundation

/// `UIResponder`.
@MainActor open class UIResponder: NSObject {}
/// `UIView`.
@MainActor open class UIView: UIResponder {}
/// `UIWindow`.
@MainActor open class UIWindow: UIView {}

/// `UIScene` (iOS 13.0).
@available(iOS 13.0, *)
@MainActor open class UIScene: UIResponder {}

/// `UIWindowScene` (iOS 13.0).
@available(iOS 13.0, *)
@MainActor open class UIWindowScene: UIScene {
    /// `keyWindow` (iOS 15.0).
    @available(iOS 15.0, *)
    open var keyWindow: UIWindow? { standIn() }
}

/// `UIBackgroundTaskIdentifier` (iOS 4.0).
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier.
    public let rawValue: Int
    /// An identifier for `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `UIBackgroundTaskIdentifier.invalid`: no background time was granted.
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// `UIApplication`.
@MainActor open class UIApplication: UIResponder {
    /// `shared`: unavailable in app extensions.
    @available(iOSApplicationExtension, unavailable)
    open class var shared: UIApplication { standIn() }

    /// `connectedScenes` (iOS 13.0).
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { standIn() }

    /// `beginBackgroundTask(withName:expirationHandler:)` (iOS 7.0): the handler runs on the
    /// main thread shortly before the background time runs out.
    nonisolated open func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { standIn() }

    /// `endBackgroundTask(_:)` (iOS 4.0).
    nonisolated open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) { standIn() }

    /// `protectedDataDidBecomeAvailableNotification` (iOS 4.0).
    nonisolated public static let protectedDataDidBecomeAvailableNotification = NSNotification.Name("UIApplicationProtectedDataDidBecomeAvailable")
}

/// `UIKeyboardType` (iOS 2.0).
public enum UIKeyboardType: Int, @unchecked Sendable {
    /// The default keyboard.
    case `default` = 0
    /// A keyboard for email addresses.
    case emailAddress = 7
}

/// `UITextContentType` (iOS 10.0).
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    /// The content type's name.
    public let rawValue: String
    /// A content type named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `.username` (iOS 11.0).
    @available(iOS 11.0, *) public static let username = UITextContentType(rawValue: "username")
    /// `.password` (iOS 11.0).
    @available(iOS 11.0, *) public static let password = UITextContentType(rawValue: "password")
    /// `.newPassword` (iOS 12.0).
    @available(iOS 12.0, *) public static let newPassword = UITextContentType(rawValue: "new-password")
    /// `.oneTimeCode` (iOS 12.0).
    @available(iOS 12.0, *) public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

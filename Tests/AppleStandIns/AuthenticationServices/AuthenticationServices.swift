// Stand-in for the subset of AuthenticationServices the SDK calls, copied from Apple's
// declarations (ASWebAuthenticationSession.h, ASFoundation.h and their Swift documentation):
// names, labels, types, optionality, availability, `@MainActor`. Bodies are never run.
@_exported public import AppleFoundation
#if LATCHKEY_CHECK_IOS
    public import UIKit

    /// `ASPresentationAnchor`: a `UIWindow` on iOS.
    public typealias ASPresentationAnchor = UIWindow
#else
    public import AppKit

    /// `ASPresentationAnchor`: an `NSWindow` on macOS.
    public typealias ASPresentationAnchor = NSWindow
#endif

/// `ASWebAuthenticationPresentationContextProviding` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// The window to show the sheet over.
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// `ASWebAuthenticationSession` (iOS 12.0, macOS 10.15).
@available(iOS 12.0, macOS 10.15, *)
open class ASWebAuthenticationSession: NSObject {
    /// `ASWebAuthenticationSession.CompletionHandler`.
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// `ASWebAuthenticationSession.Callback` (iOS 17.4, macOS 14.4).
    @available(iOS 17.4, macOS 14.4, *)
    open class Callback: NSObject {
        /// A callback to `customScheme`.
        open class func customScheme(_ customScheme: String) -> Callback { standIn() }
        /// A callback to `https://host/path`.
        open class func https(host: String, path: String) -> Callback { standIn() }
    }

    /// `init(url:callbackURLScheme:completionHandler:)`.
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) { standIn() }

    /// `init(url:callback:completionHandler:)` (iOS 17.4, macOS 14.4).
    @available(iOS 17.4, macOS 14.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) { standIn() }

    /// `presentationContextProvider` (iOS 13.0, macOS 10.15).
    @available(iOS 13.0, macOS 10.15, *)
    weak open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)? {
        get { standIn() }
        set { standIn() }
    }

    /// `prefersEphemeralWebBrowserSession` (iOS 13.0, macOS 10.15).
    @available(iOS 13.0, macOS 10.15, *)
    open var prefersEphemeralWebBrowserSession: Bool {
        get { standIn() }
        set { standIn() }
    }

    /// `start()`.
    open func start() -> Bool { standIn() }
    /// `cancel()`.
    open func cancel() { standIn() }
}

/// `ASWebAuthenticationSessionError` (iOS 12.0, macOS 10.15).
@available(iOS 12.0, macOS 10.15, *)
public struct ASWebAuthenticationSessionError: Error, Hashable {
    /// `ASWebAuthenticationSessionError.Code`.
    public enum Code: Int, @unchecked Sendable {
        /// The person closed the sheet.
        case canceledLogin = 1
        /// No presentation context was provided.
        case presentationContextNotProvided = 2
        /// The presentation context was not valid.
        case presentationContextInvalid = 3
    }

    /// The error's code.
    public var code: Code { standIn() }
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

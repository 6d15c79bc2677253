// Stand-in for the subset of AuthenticationServices the SDK calls, copied from Apple's
// declarations (ASWebAuthenticationSession.h, ASFoundation.h, ASAuthorizationController.h,
// the ASAuthorizationPlatformPublicKeyCredential*.h headers and their Swift documentation):
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

// MARK: - Passkeys: ASAuthorizationController and the platform public key credential provider

/// `ASAuthorizationRequest` (iOS 13.0, macOS 10.15): the base of every request.
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationRequest: NSObject {}

/// `ASAuthorizationCredential` (iOS 13.0, macOS 10.15): what an authorization returns.
@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// `ASAuthorization` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorization: NSObject {
    /// The credential the request produced.
    open var credential: any ASAuthorizationCredential { standIn() }
}

/// `ASAuthorizationPublicKeyCredentialUserVerificationPreference` (iOS 15.0, macOS 12.0): a
/// string-backed struct with WebAuthn's three values.
@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, RawRepresentable, @unchecked Sendable {
    /// The raw value.
    public var rawValue: String
    /// `init(rawValue:)`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `preferred`.
    public static var preferred: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    /// `required`.
    public static var required: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
    /// `discouraged`.
    public static var discouraged: ASAuthorizationPublicKeyCredentialUserVerificationPreference { standIn() }
}

/// `ASAuthorizationPublicKeyCredentialAttachment` (iOS 16.6, macOS 13.5).
@available(iOS 16.6, macOS 13.5, *)
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, @unchecked Sendable {
    /// This device's own authenticator.
    case platform = 0
    /// Another device's (hybrid transport, a security key).
    case crossPlatform = 1
}

/// `ASAuthorizationPlatformPublicKeyCredentialDescriptor` (iOS 15.0, macOS 12.0).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    /// `init(credentialID:)`.
    public init(credentialID: Data) { standIn() }
}

/// `ASAuthorizationPlatformPublicKeyCredentialProvider` (iOS 15.0, macOS 12.0).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    /// `init(relyingPartyIdentifier:)`.
    public init(relyingPartyIdentifier: String) { standIn() }

    /// `createCredentialRegistrationRequest(challenge:name:userID:)`.
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { standIn() }

    /// `createCredentialAssertionRequest(challenge:)`.
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        standIn()
    }
}

/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` (iOS 15.0, macOS 12.0), with
/// the members of `ASAuthorizationPublicKeyCredentialRegistrationRequest` it conforms to.
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    /// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle` (iOS 18.0, macOS 15.0).
    @available(iOS 18.0, macOS 15.0, *)
    public enum RequestStyle: Int, @unchecked Sendable {
        /// A sheet.
        case standard = 0
        /// The automatic passkey upgrade: no UI, at the credential manager's discretion.
        case conditional = 1
    }

    /// `displayName`.
    open var displayName: String? {
        get { standIn() }
        set { standIn() }
    }

    /// `userVerificationPreference`.
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() }
        set { standIn() }
    }

    /// `excludedCredentials` (iOS 17.4, macOS 14.4; from
    /// `ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest`).
    @available(iOS 17.4, macOS 14.4, *)
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { standIn() }
        set { standIn() }
    }

    /// `requestStyle` (iOS 18.0, macOS 15.0).
    @available(iOS 18.0, macOS 15.0, *)
    open var requestStyle: RequestStyle {
        get { standIn() }
        set { standIn() }
    }
}

/// `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest` (iOS 15.0, macOS 12.0).
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    /// `allowedCredentials`.
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { standIn() }
        set { standIn() }
    }

    /// `userVerificationPreference`.
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { standIn() }
        set { standIn() }
    }
}

/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` (iOS 15.0, macOS 12.0), with the
/// members of `ASPublicKeyCredential` and `ASAuthorizationPublicKeyCredentialRegistration`.
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    /// `credentialID`.
    open var credentialID: Data { standIn() }
    /// `rawClientDataJSON`.
    open var rawClientDataJSON: Data { standIn() }
    /// `rawAttestationObject`.
    open var rawAttestationObject: Data? { standIn() }
    /// `attachment` (iOS 16.6, macOS 13.5).
    @available(iOS 16.6, macOS 13.5, *)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { standIn() }
}

/// `ASAuthorizationPlatformPublicKeyCredentialAssertion` (iOS 15.0, macOS 12.0), with the
/// members of `ASPublicKeyCredential` and `ASAuthorizationPublicKeyCredentialAssertion`.
@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    /// `credentialID`.
    open var credentialID: Data { standIn() }
    /// `rawClientDataJSON`.
    open var rawClientDataJSON: Data { standIn() }
    /// `rawAuthenticatorData` (implicitly unwrapped in Apple's interface).
    open var rawAuthenticatorData: Data! { standIn() }
    /// `signature` (implicitly unwrapped in Apple's interface).
    open var signature: Data! { standIn() }
    /// `userID` (implicitly unwrapped in Apple's interface).
    open var userID: Data! { standIn() }
    /// `attachment` (iOS 16.6, macOS 13.5).
    @available(iOS 16.6, macOS 13.5, *)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { standIn() }
}

/// `ASAuthorizationControllerDelegate` (iOS 13.0, macOS 10.15). Apple's methods are
/// Objective-C optional requirements; here they are requirements with empty defaults.
@available(iOS 13.0, macOS 10.15, *)
@MainActor public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// The request succeeded.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// The request failed (an `ASAuthorizationError`).
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

@available(iOS 13.0, macOS 10.15, *)
extension ASAuthorizationControllerDelegate {
    /// Optional in Apple's interface.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
    /// Optional in Apple's interface.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// `ASAuthorizationControllerPresentationContextProviding` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
@MainActor public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// The window to show the sheet over.
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// `ASAuthorizationController` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationController: NSObject {
    /// `init(authorizationRequests:)`.
    public init(authorizationRequests: [ASAuthorizationRequest]) { standIn() }

    /// `delegate`.
    weak open var delegate: (any ASAuthorizationControllerDelegate)? {
        get { standIn() }
        set { standIn() }
    }

    /// `presentationContextProvider`.
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)? {
        get { standIn() }
        set { standIn() }
    }

    /// `performRequests()`.
    open func performRequests() { standIn() }

    /// `performAutoFillAssistedRequests()` (iOS 16.0; not on macOS).
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    open func performAutoFillAssistedRequests() { standIn() }

    /// `cancel()` (iOS 16.0, macOS 13.0).
    @available(iOS 16.0, macOS 13.0, *)
    open func cancel() { standIn() }
}

/// `ASAuthorizationError` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
public struct ASAuthorizationError: Error, Hashable {
    /// `ASAuthorizationError.Code`.
    public enum Code: Int, @unchecked Sendable {
        /// `unknown`.
        case unknown = 1000
        /// `canceled`: the person dismissed the sheet, or the app cancelled the request.
        case canceled = 1001
        /// `invalidResponse`.
        case invalidResponse = 1002
        /// `notHandled`.
        case notHandled = 1003
        /// `failed`.
        case failed = 1004
        /// `notInteractive` (iOS 15.0, macOS 12.0).
        case notInteractive = 1005
        /// `matchedExcludedCredential` (iOS 18.0, macOS 15.0).
        case matchedExcludedCredential = 1006
    }

    /// The error's code.
    public var code: Code { standIn() }
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

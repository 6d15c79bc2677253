// Stand-in for AuthenticationServices' SwiftUI cross-import overlay: loaded in a file that
// imports both AuthenticationServices and SwiftUI, as on Apple platforms. Copied from Apple's
// declarations (`WebAuthenticationSession`, `EnvironmentValues.webAuthenticationSession`);
// never run.
@_exported public import AuthenticationServices
@_exported public import SwiftUI

/// `WebAuthenticationSession` (iOS 16.4, macOS 13.3).
@available(iOS 16.4, macOS 13.3, *)
@MainActor public struct WebAuthenticationSession {
    /// `WebAuthenticationSession.BrowserSession`.
    public struct BrowserSession: Sendable {
        /// Shares cookies with the person's browser.
        public static var shared: BrowserSession { standIn() }
        /// Shares nothing with the person's browser.
        public static var ephemeral: BrowserSession { standIn() }
    }

    /// `authenticate(using:callbackURLScheme:preferredBrowserSession:)`.
    @MainActor public func authenticate(
        using url: URL, callbackURLScheme: String, preferredBrowserSession: BrowserSession? = nil
    ) async throws -> URL { standIn() }

    /// `authenticate(using:callback:preferredBrowserSession:additionalHeaderFields:)` (iOS 17.4, macOS 14.4).
    @available(iOS 17.4, macOS 14.4, *)
    @MainActor public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback, preferredBrowserSession: BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { standIn() }
}

@available(iOS 16.4, macOS 13.3, *)
extension EnvironmentValues {
    /// `webAuthenticationSession`.
    public var webAuthenticationSession: WebAuthenticationSession { standIn() }
}

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }

#if os(iOS) || os(macOS)
    public import AuthenticationServices
    import Foundation
    public import SwiftUI

    extension WebAuthenticationSession {
        /// Shows `request` through SwiftUI's web authentication session — the
        /// `webAuthenticationSession` environment value, which needs no window or
        /// presentation anchor — and returns the callback URL for
        /// ``OAuthClient/completeSignIn(callback:for:)``:
        ///
        /// ```swift
        /// @Environment(\.webAuthenticationSession) private var webAuthenticationSession
        /// let callback = try await webAuthenticationSession.callbackURL(for: request)
        /// ```
        ///
        /// The callback is ``WebAuthenticationCallback``'s choice for the request's redirect
        /// URI: an https one (iOS 17.4, macOS 14.4) needs `webcredentials:` for its host in
        /// the app's Associated Domains. The sign-in runs through `flow`
        /// (``WebAuthenticationFlow/shared`` unless given): a second tap while the sheet is up
        /// fails with `sign_in_in_progress` instead of starting a second sign-in.
        ///
        /// - Throws: ``LatchkeyClientError`` `sign_in_cancelled` when the person closes the
        ///   sheet, `authorization_failed` (with the reason of
        ///   ``WebAuthenticationFlow/result(callbackURL:errorCode:)``, or `sign_in_in_progress`)
        ///   when it fails, `invalid_configuration` for a redirect URI it cannot watch for.
        @MainActor
        public func callbackURL(
            for request: AuthorizationRequest, prefersEphemeralSession: Bool = false, flow: WebAuthenticationFlow = .shared
        ) async throws -> URL {
            let callback = try WebAuthenticationCallback(redirectURI: request.redirectURI)
            return try await flow.callbackURL { try await present(request, callback: callback, prefersEphemeralSession: prefersEphemeralSession) }
        }

        /// Shows the sheet for `request`, watching for `callback`.
        @MainActor
        private func present(_ request: AuthorizationRequest, callback: WebAuthenticationCallback, prefersEphemeralSession: Bool)
            async throws -> URL
        {
            let browser: BrowserSession = prefersEphemeralSession ? .ephemeral : .shared
            do {
                if #available(iOS 17.4, macOS 14.4, *) {
                    let matching: ASWebAuthenticationSession.Callback =
                        switch callback {
                        case .customScheme(let scheme): .customScheme(scheme)
                        case .https(let host, let path): .https(host: host, path: path)
                        }
                    return try await authenticate(
                        using: request.url, callback: matching, preferredBrowserSession: browser, additionalHeaderFields: [:])
                }
                guard case .customScheme(let scheme) = callback else {
                    throw LatchkeyClientError(.invalidConfiguration, reasons: ["https_callback_unavailable"])
                }
                return try await authenticate(using: request.url, callbackURLScheme: scheme, preferredBrowserSession: browser)
            } catch let error as ASWebAuthenticationSessionError {
                return try WebAuthenticationFlow.result(callbackURL: nil, errorCode: error.code.rawValue).get()
            }
        }
    }
#endif

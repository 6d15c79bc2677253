#if canImport(AuthenticationServices)
    public import AuthenticationServices
    public import Foundation

    /// Shows an ``AuthorizationRequest`` in `ASWebAuthenticationSession` (the system's
    /// in-app browser, sharing Safari's cookies unless ephemeral) and returns the callback
    /// URL, for ``OAuthClient/completeSignIn(callback:for:)``.
    @MainActor
    public final class WebAuthenticationSignIn: NSObject, ASWebAuthenticationPresentationContextProviding {
        private let anchor: ASPresentationAnchor
        private let prefersEphemeralSession: Bool
        private var session: ASWebAuthenticationSession?

        /// A presenter over `anchor` (the app's key window). With
        /// `prefersEphemeralSession` no cookies are shared with Safari, so no single sign-on.
        public init(anchor: ASPresentationAnchor, prefersEphemeralSession: Bool = false) {
            self.anchor = anchor
            self.prefersEphemeralSession = prefersEphemeralSession
        }

        /// Opens `request.url` and waits for the redirect to `callbackScheme` (the custom
        /// scheme of the request's redirect URI, e.g. `com.example.app`).
        ///
        /// - Throws: ``LatchkeyClientError`` `sign_in_cancelled` when the person closes
        ///   the sheet, `authorization_failed` when it cannot start.
        public func callbackURL(for request: AuthorizationRequest, callbackScheme: String) async throws -> URL {
            try await withCheckedThrowingContinuation { continuation in
                // `@Sendable`, so not main-actor isolated: Swift 6 would trap if the framework
                // called an isolated closure off the main thread.
                let session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: callbackScheme) {
                    @Sendable url, error in
                    if let url {
                        continuation.resume(returning: url)
                    } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                        continuation.resume(throwing: LatchkeyClientError(.signInCancelled))
                    } else {
                        continuation.resume(throwing: LatchkeyClientError(.authorizationFailed, reasons: ["web_session_failed"]))
                    }
                }
                session.presentationContextProvider = self
                session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
                self.session = session
                if !session.start() {
                    continuation.resume(throwing: LatchkeyClientError(.authorizationFailed, reasons: ["web_session_not_started"]))
                }
            }
        }

        /// The window the sheet is shown over.
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }
    }
#endif

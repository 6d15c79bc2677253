#if os(iOS) || os(macOS)
    public import AuthenticationServices
    import Foundation

    /// Shows an ``AuthorizationRequest`` in `ASWebAuthenticationSession` (the system's
    /// in-app browser, sharing Safari's cookies unless ephemeral) and returns the callback
    /// URL, for ``OAuthClient/completeSignIn(callback:for:)``. In SwiftUI, prefer the
    /// `webAuthenticationSession` environment value (``callbackURL(for:prefersEphemeralSession:)``
    /// on `WebAuthenticationSession`).
    ///
    /// The rules — one sign-in at a time, the caller resumed exactly once, task
    /// cancellation closing the sheet — are ``WebAuthenticationFlow``'s; which callback
    /// the sheet watches for is ``WebAuthenticationCallback``'s. This type only creates
    /// and starts the session.
    @MainActor
    public final class WebAuthenticationSignIn: NSObject, ASWebAuthenticationPresentationContextProviding {
        private let anchor: ASPresentationAnchor
        private let prefersEphemeralSession: Bool
        private let flow = WebAuthenticationFlow()

        /// A presenter over `anchor` (the app's key window). With
        /// `prefersEphemeralSession` no cookies are shared with Safari, so no single sign-on.
        public init(anchor: ASPresentationAnchor, prefersEphemeralSession: Bool = false) {
            self.anchor = anchor
            self.prefersEphemeralSession = prefersEphemeralSession
        }

        /// Opens `request.url` and waits for the redirect to the request's redirect URI:
        /// its custom scheme, or (iOS 17.4, macOS 14.4) its https host and path.
        ///
        /// - Throws: ``LatchkeyClientError`` `sign_in_cancelled` when the person closes
        ///   the sheet; `authorization_failed` when it cannot start or another sign-in is
        ///   showing (`sign_in_in_progress`); `invalid_configuration` for a redirect URI the
        ///   sheet cannot watch for (`https_callback_unavailable` before iOS 17.4 / macOS
        ///   14.4); `CancellationError` when the calling task is cancelled (the sheet closes).
        public func callbackURL(for request: AuthorizationRequest) async throws -> URL {
            let callback = try WebAuthenticationCallback(redirectURI: request.redirectURI)
            // Holds this sign-in's session while it runs (the system does not keep it alive)
            // and for a cancellation that arrives after the wait ended: it closes this
            // session, never a later one.
            let presented = PresentedSession()
            return try await flow.callbackURL(
                start: { finish in
                    // `@Sendable`, so not main-actor isolated: Swift 6 would trap if the
                    // framework called an isolated closure off the main thread.
                    let handler: ASWebAuthenticationSession.CompletionHandler = { @Sendable url, error in
                        finish(WebAuthenticationFlow.result(
                            callbackURL: url, errorCode: (error as? ASWebAuthenticationSessionError)?.code.rawValue))
                    }
                    guard let session = Self.session(url: request.url, callback: callback, handler: handler) else {
                        finish(.failure(LatchkeyClientError(.invalidConfiguration, reasons: ["https_callback_unavailable"])))
                        return true
                    }
                    session.presentationContextProvider = self
                    session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
                    presented.session = session
                    return session.start()
                },
                cancel: {
                    Task { @MainActor in presented.session?.cancel() }
                })
        }

        /// The session for `callback`: through `ASWebAuthenticationSession.Callback` where
        /// the system has it (iOS 17.4, macOS 14.4), else by scheme; nil for an https
        /// callback on an older system.
        private static func session(
            url: URL, callback: WebAuthenticationCallback, handler: @escaping ASWebAuthenticationSession.CompletionHandler
        ) -> ASWebAuthenticationSession? {
            if #available(iOS 17.4, macOS 14.4, *) {
                let matching: ASWebAuthenticationSession.Callback =
                    switch callback {
                    case .customScheme(let scheme): .customScheme(scheme)
                    case .https(let host, let path): .https(host: host, path: path)
                    }
                return ASWebAuthenticationSession(url: url, callback: matching, completionHandler: handler)
            }
            guard case .customScheme(let scheme) = callback else { return nil }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: handler)
        }

        /// The window the sheet is shown over.
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }
    }

    /// The session of one sign-in.
    @MainActor
    private final class PresentedSession {
        var session: ASWebAuthenticationSession?
    }
#endif

public import Foundation

/// The rules around one presenter of web sign-ins (``WebAuthenticationSignIn``, and SwiftUI's
/// `WebAuthenticationSession` through ``shared``), in portable code so they are tested on
/// Linux with real concurrency:
/// - one sign-in at a time: a second call while one is shown fails with
///   `authorization_failed` (`sign_in_in_progress`) instead of replacing the first;
/// - the caller's continuation is resumed exactly once, whatever the browser session
///   does — `ASWebAuthenticationSession` has been seen to call its completion handler
///   twice (auth0/Auth0.swift#950) and, when `start()` returns false, may or may not call
///   it (auth0/Auth0.swift#729); resuming twice crashes the app;
/// - cancelling the caller's task ends the wait at once with `CancellationError` and asks
///   the browser session to close.
public final class WebAuthenticationFlow: @unchecked Sendable {
    // `Mutex` would need iOS 18, so an `NSLock` guards the one flag.
    private let lock = NSLock()
    private var inProgress = false

    /// A presenter with no sign-in running.
    public init() {}

    /// The presenter SwiftUI's entry (`WebAuthenticationSession.callbackURL(for:prefersEphemeralSession:flow:)`)
    /// uses unless given another: one browser sign-in at a time in the process.
    public static let shared = WebAuthenticationFlow()

    /// Runs one sign-in whose browser is shown by an `async` call (SwiftUI's
    /// `WebAuthenticationSession`, which resumes its caller once by itself): a second call
    /// while one runs fails at once instead of showing a second sheet; a cancelled task
    /// shows nothing.
    ///
    /// - Throws: `authorization_failed` (`sign_in_in_progress`), `CancellationError`, or
    ///   what `present` throws.
    public func callbackURL(
        isolation: isolated (any Actor)? = #isolation, present: () async throws -> URL
    ) async throws -> URL {
        try Task.checkCancellation()
        guard claim() else { throw LatchkeyClientError(.authorizationFailed, reasons: ["sign_in_in_progress"]) }
        defer { unclaim() }
        return try await present()
    }

    /// Runs one sign-in: `start` shows the browser, hands `finish` to its completion
    /// handler and returns whether it started; `cancel` closes it. Runs on the caller's
    /// actor (the main actor for UI), as `start` must.
    ///
    /// - Throws: what `finish` was given first; `authorization_failed` with
    ///   `web_session_not_started` when `start` returned false and nothing finished, or
    ///   `sign_in_in_progress`; `CancellationError`.
    public func callbackURL(
        isolation: isolated (any Actor)? = #isolation,
        start: (_ finish: @escaping @Sendable (Result<URL, any Error>) -> Void) -> Bool,
        cancel: @escaping @Sendable () -> Void
    ) async throws -> URL {
        try Task.checkCancellation()
        guard claim() else { throw LatchkeyClientError(.authorizationFailed, reasons: ["sign_in_in_progress"]) }
        defer { unclaim() }
        let outcome = SingleOutcome<URL>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                outcome.attach(continuation)
                if !start({ outcome.finish($0) }) {
                    outcome.finish(.failure(LatchkeyClientError(.authorizationFailed, reasons: ["web_session_not_started"])))
                }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
            cancel()
        }
    }

    /// The result for what the browser session's completion handler received: the
    /// callback URL, or the `ASWebAuthenticationSessionError` code (1 canceled login,
    /// 2 no presentation context, 3 invalid presentation context — the window was not in
    /// the foreground) of its error.
    public static func result(callbackURL: URL?, errorCode: Int?) -> Result<URL, any Error> {
        if let callbackURL { return .success(callbackURL) }
        let error: LatchkeyClientError =
            switch errorCode {
            case 1: LatchkeyClientError(.signInCancelled)
            case 2: LatchkeyClientError(.authorizationFailed, reasons: ["presentation_context_not_provided"])
            case 3: LatchkeyClientError(.authorizationFailed, reasons: ["presentation_context_invalid"])
            default: LatchkeyClientError(.authorizationFailed, reasons: ["web_session_failed"])
            }
        return .failure(error)
    }

    private func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !inProgress else { return false }
        inProgress = true
        return true
    }

    private func unclaim() {
        lock.lock()
        defer { lock.unlock() }
        inProgress = false
    }
}

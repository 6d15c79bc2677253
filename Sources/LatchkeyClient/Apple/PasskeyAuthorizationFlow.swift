import Foundation

/// The rules around the system's passkey requests (``PasskeyAuthorization``, over
/// `ASAuthorizationController`), in portable code so they are tested on Linux with real
/// concurrency:
/// - one modal request (a sheet: make a passkey, sign in with one, the automatic upgrade) at a
///   time: a second one while one runs fails with `passkey_refused` (`passkey_request_in_progress`)
///   instead of replacing it;
/// - an AutoFill request (the keyboard's passkey suggestion) yields: a modal request cancels it
///   first — the system refuses a sheet while one waits — and a new AutoFill request replaces
///   the old one; the cancelled caller gets `passkey_cancelled`;
/// - the caller is resumed exactly once, whatever the controller's delegate does;
/// - cancelling the caller's task ends the wait at once with `CancellationError` and cancels
///   the request (the sheet closes, the suggestion goes).
public final class PasskeyAuthorizationFlow: @unchecked Sendable {
    /// How a request is shown.
    public enum Style: Sendable, Hashable {
        /// A sheet, at once.
        case modal
        /// A suggestion above the keyboard of a field with the `.username` content type, waiting
        /// until the person picks it.
        case autoFill
    }

    private struct Running {
        let id: UUID
        let style: Style
        let finish: @Sendable (any Error) -> Void
        let cancel: @Sendable () -> Void
    }

    // `Mutex` would need iOS 18, so an `NSLock` guards the one running request.
    private let lock = NSLock()
    private var running: Running?

    /// A flow with no request running.
    public init() {}

    /// The flow ``PasskeyAuthorization`` uses unless given another: one passkey request at a
    /// time in the process.
    public static let shared = PasskeyAuthorizationFlow()

    /// Runs one request: `start` shows it and hands `finish` to the controller's delegate;
    /// `cancel` withdraws it (`ASAuthorizationController.cancel()`). Runs on the caller's actor
    /// (the main actor for UI), as `start` must.
    ///
    /// - Throws: what `finish` was given first; `passkey_refused` (`passkey_request_in_progress`)
    ///   when a modal request runs already; `passkey_cancelled` when a later request replaced this
    ///   AutoFill one; `CancellationError`.
    public func perform<Value: Sendable>(
        isolation: isolated (any Actor)? = #isolation, style: Style,
        start: (_ finish: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void,
        cancel: @escaping @Sendable () -> Void
    ) async throws -> Value {
        try Task.checkCancellation()
        let outcome = SingleOutcome<Value>()
        let id = UUID()
        let replaced = try claim(Running(id: id, style: style, finish: { outcome.finish(.failure($0)) }, cancel: cancel))
        replaced?.finish(LatchkeyClientError(.passkeyCancelled, reasons: ["replaced_by_another_request"]))
        replaced?.cancel()
        defer { unclaim(id) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                outcome.attach(continuation)
                start { outcome.finish($0) }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
            cancel()
        }
    }

    /// The error for an `ASAuthorizationError` code (`ASAuthorizationErrorDomain`) the
    /// controller's delegate received: `canceled` (1001) is `passkey_cancelled`;
    /// `matchedExcludedCredential` (1006: the device holds one of the account's passkeys) is
    /// `passkey_exists`; the others are `passkey_refused` with the platform's reason —
    /// `platform_failed` (1004: also no passkey for an AutoFill or automatic-upgrade request
    /// to offer), `invalid_response` (1002), `not_handled` (1003), `not_interactive` (1005),
    /// `device_not_configured` (1010: no passcode, or no iCloud Keychain), `platform_unknown`.
    public static func error(authorizationErrorCode code: Int) -> LatchkeyClientError {
        switch code {
        case 1001: LatchkeyClientError(.passkeyCancelled)
        case 1006: LatchkeyClientError(.passkeyExists, reasons: ["matched_excluded_credential"])
        case 1002: LatchkeyClientError(.passkeyRefused, reasons: ["invalid_response"])
        case 1003: LatchkeyClientError(.passkeyRefused, reasons: ["not_handled"])
        case 1004: LatchkeyClientError(.passkeyRefused, reasons: ["platform_failed"])
        case 1005: LatchkeyClientError(.passkeyRefused, reasons: ["not_interactive"])
        case 1010: LatchkeyClientError(.passkeyRefused, reasons: ["device_not_configured"])
        default: LatchkeyClientError(.passkeyRefused, reasons: ["platform_unknown"])
        }
    }

    /// Records `request` as the running one; returns an AutoFill request it replaces.
    private func claim(_ request: Running) throws -> Running? {
        lock.lock()
        defer { lock.unlock() }
        if let current = running, current.style == .modal {
            throw LatchkeyClientError(.passkeyRefused, reasons: ["passkey_request_in_progress"])
        }
        let replaced = running
        running = request
        return replaced
    }

    private func unclaim(_ id: UUID) {
        lock.lock()
        defer { lock.unlock() }
        if running?.id == id { running = nil }
    }
}

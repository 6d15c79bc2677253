import Foundation

/// A continuation resumed exactly once: the first ``finish(_:)`` wins, later ones are
/// ignored; a result that comes before the continuation is attached is kept for it. The
/// system sheets (`ASWebAuthenticationSession`, `ASAuthorizationController`) call back on
/// their own schedule, and resuming a continuation twice crashes the app.
final class SingleOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var finished = false

    func attach(_ continuation: CheckedContinuation<Value, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        if let early {
            self.early = nil
            continuation.resume(with: early)
        } else {
            self.continuation = continuation
        }
    }

    func finish(_ result: Result<Value, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        if let continuation {
            self.continuation = nil
            continuation.resume(with: result)
        } else {
            early = result
        }
    }
}

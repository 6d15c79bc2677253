import Foundation

/// A completion handler (a sheet's, a delegate's) kept by a test until it decides to call it.
final class PendingCompletion<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (Result<Value, any Error>) -> Void)?

    func set(_ handler: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.handler = handler
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return handler != nil
    }

    func finish(_ result: Result<Value, any Error>) {
        lock.lock()
        let handler = self.handler
        lock.unlock()
        handler?(result)
    }
}

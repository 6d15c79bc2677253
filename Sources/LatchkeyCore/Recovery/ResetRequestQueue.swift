import Foundation

/// Reset requests accepted by the HTTP layer and not yet processed. Bounded, so a flood
/// cannot exhaust memory: when full, new requests are dropped (and logged by the caller).
final class ResetRequestQueue: @unchecked Sendable {
    // @unchecked: every access to `items` happens with `condition` locked.
    private let condition = NSCondition()
    private var items: [PasswordRecoveryService.ResetRequest] = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds a request; false when the queue is full.
    func push(_ request: PasswordRecoveryService.ResetRequest) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard items.count < capacity else { return false }
        items.append(request)
        condition.signal()
        return true
    }

    /// Removes and returns the oldest request, if any.
    func pop() -> PasswordRecoveryService.ResetRequest? {
        condition.lock()
        defer { condition.unlock() }
        return items.isEmpty ? nil : items.removeFirst()
    }

    /// Waits until a request is queued or `timeout` passes; true when one is waiting.
    func waitForItem(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if items.isEmpty { _ = condition.wait(until: Date().addingTimeInterval(timeout)) }
        return !items.isEmpty
    }

    /// Wakes every waiter (used at shutdown).
    func wakeAll() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}

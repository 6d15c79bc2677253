import Synchronization

/// The request-body bytes the whole server holds at once, across every connection: a
/// request's share is reserved when its head says how long the body is (`Content-Length`),
/// or piece by piece as a chunked body arrives, and given back when the request ends —
/// answered, refused, cut off at its deadline, or its connection closed by either side.
///
/// Past ``limit`` the request is refused (`503` with `Retry-After`, its connection closed)
/// instead of read: however many connections send bodies slowly, the memory they make the
/// server hold for them stays under the limit. Lock-free; shared by the event threads.
package final class BodyBudget: Sendable {
    /// The most bytes reserved at once.
    package let limit: Int
    private let reserved = Atomic<Int>(0)

    /// A budget of `limit` bytes, nothing reserved.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Reserves `bytes` (at least 0) if that keeps the total within ``limit``; false
    /// (nothing reserved) otherwise.
    package func reserve(_ bytes: Int) -> Bool {
        var current = reserved.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = reserved.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back `bytes` reserved before.
    package func release(_ bytes: Int) {
        reserved.subtract(bytes, ordering: .relaxed)
    }

    /// The bytes reserved now.
    package var reservedBytes: Int {
        reserved.load(ordering: .relaxed)
    }
}

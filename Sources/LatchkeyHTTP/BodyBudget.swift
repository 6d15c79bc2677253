import Synchronization

/// The request-body bytes the whole server holds at once, across every connection: a
/// request's share is reserved when its head says how long the body is (`Content-Length`),
/// or piece by piece as a chunked body arrives, and given back when the request ends —
/// answered, refused, cut off at its deadline, or its connection closed by either side.
///
/// Past ``limit`` the request is refused (`503` with `Retry-After`, its connection closed)
/// instead of read: however many connections send bodies slowly, the memory they make the
/// server hold for them stays under the limit.
///
/// The last ``smallBodyReserve`` bytes are kept for small bodies (a request's whole share at
/// most ``smallBodyBytes``): every route people sign in, refresh and reset with takes a body
/// of a few hundred bytes, so a flood of large half-sent bodies — which fills the budget
/// with a few hundred connections — makes large bodies wait but never the small ones. Filling
/// the reserve too takes one connection per 4 KiB of it. Lock-free; shared by the event threads.
package final class BodyBudget: Sendable {
    /// The most bytes reserved at once.
    package let limit: Int
    /// The largest share a request may hold and still count as a small body.
    package let smallBodyBytes: Int
    /// The bytes only small bodies may take: an eighth of ``limit``.
    package var smallBodyReserve: Int { limit / 8 }
    private let reserved = Atomic<Int>(0)

    /// A budget of `limit` bytes, nothing reserved; shares of at most `smallBodyBytes` are
    /// small bodies.
    package init(limit: Int, smallBodyBytes: Int = 4096) {
        self.limit = limit
        self.smallBodyBytes = smallBodyBytes
    }

    /// Reserves `bytes` (at least 0) for a request whose share becomes `share` bytes with
    /// them, if that keeps the total within ``limit`` — within ``limit`` less
    /// ``smallBodyReserve`` when `share` is more than ``smallBodyBytes``; false (nothing
    /// reserved) otherwise.
    package func reserve(_ bytes: Int, share: Int) -> Bool {
        let ceiling = share <= smallBodyBytes ? limit : limit - smallBodyReserve
        var current = reserved.load(ordering: .relaxed)
        while true {
            guard bytes <= ceiling - current else { return false }
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

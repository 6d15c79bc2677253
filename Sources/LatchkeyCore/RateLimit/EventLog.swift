import Foundation

/// The instants of one key's counted events, oldest first, for ``LocalRateLimiter``.
///
/// Events leave from the front as they age out of every window and arrive at the back, so
/// the log keeps a moving start instead of shifting its elements: dropping the oldest is
/// O(1) however many the key holds (a generous limit means thousands), and the storage
/// before the start is reclaimed once it is at least half of the whole, so the work per
/// event stays constant and the memory at most twice the live events.
struct EventLog {
    /// The storage; the live events are `storage[start...]`.
    private var storage: [Date] = []
    private var start = 0

    /// How many events the log holds.
    var count: Int { storage.count - start }

    /// The newest event; nil when the log is empty.
    var latest: Date? { count > 0 ? storage[storage.count - 1] : nil }

    /// The event at `index`, 0 being the oldest.
    subscript(index: Int) -> Date { storage[start + index] }

    /// The index of the first event for which `isRecent` holds, given that it holds for
    /// every later one too; ``count`` when it holds for none. A binary search.
    func firstIndex(where isRecent: (Date) -> Bool) -> Int {
        var low = start
        var high = storage.count
        while low < high {
            let middle = low + (high - low) / 2
            if isRecent(storage[middle]) { high = middle } else { low = middle + 1 }
        }
        return low - start
    }

    /// Forgets the `oldest` oldest events.
    mutating func removeOldest(_ oldest: Int) {
        start += oldest
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16, start * 2 >= storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// Adds `instant` where it belongs in the order: usually last, but threads may bring
    /// their instants slightly out of order.
    mutating func insert(_ instant: Date) {
        if let latest, latest > instant {
            storage.insert(instant, at: start + firstIndex { $0 > instant })
        } else {
            storage.append(instant)
        }
    }

    /// Removes the newest event at or before `instant`, if there is one.
    mutating func removeLatest(notAfter instant: Date) {
        let after = firstIndex { $0 > instant }
        guard after > 0 else { return }
        storage.remove(at: start + after - 1)
    }
}

import Foundation

/// The instants of one key's counted events, oldest first, for ``LocalRateLimiter``.
///
/// Events leave from the front as they age out of every window and arrive at the back;
/// they are held in a ``FrontDroppingArray``, so dropping the oldest costs O(1) however many
/// the key holds (a generous limit means thousands), and every lookup is a binary search.
struct EventLog {
    private var events = FrontDroppingArray<Date>()

    /// How many events the log holds.
    var count: Int { events.count }

    /// The newest event; nil when the log is empty.
    var latest: Date? { events.last }

    /// The event at `index`, 0 being the oldest.
    subscript(index: Int) -> Date { events[index] }

    /// The index of the first event for which `isRecent` holds, given that it holds for
    /// every later one too; ``count`` when it holds for none. A binary search.
    func firstIndex(where isRecent: (Date) -> Bool) -> Int {
        var low = 0
        var high = events.count
        while low < high {
            let middle = low + (high - low) / 2
            if isRecent(events[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Forgets the `oldest` oldest events.
    mutating func removeOldest(_ oldest: Int) {
        events.removeFirst(oldest)
    }

    /// Adds `instant` where it belongs in the order: usually last, but threads may bring
    /// their instants slightly out of order.
    mutating func insert(_ instant: Date) {
        if let latest, latest > instant {
            events.insert(instant, at: firstIndex { $0 > instant })
        } else {
            events.append(instant)
        }
    }

    /// Removes the newest event at or before `instant`, if there is one.
    mutating func removeLatest(notAfter instant: Date) {
        let after = firstIndex { $0 > instant }
        guard after > 0 else { return }
        events.remove(at: after - 1)
    }
}

/// Elements in order, of which the oldest leave from the front (a rate limiter's event log,
/// a queue of answers due one after another).
///
/// `Array.removeFirst` shifts every remaining element; this keeps a moving start instead,
/// and reclaims the storage before it once that is at least half of the whole. Dropping
/// from the front thus costs O(1) amortised however many elements are held, and the memory
/// stays under twice what they need.
package struct FrontDroppingArray<Element> {
    /// The storage; the elements held are `storage[start...]`.
    private var storage: [Element] = []
    private var start = 0

    /// An empty array.
    package init() {}

    /// How many elements are held.
    package var count: Int { storage.count - start }

    /// Whether none is held.
    package var isEmpty: Bool { count == 0 }

    /// The oldest element; nil when empty.
    package var first: Element? { isEmpty ? nil : storage[start] }

    /// The newest element; nil when empty.
    package var last: Element? { isEmpty ? nil : storage[storage.count - 1] }

    /// The element at `index`, 0 being the oldest.
    package subscript(index: Int) -> Element { storage[start + index] }

    /// Adds `element` after the others.
    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Inserts `element` at `index` (0 to ``count``).
    package mutating func insert(_ element: Element, at index: Int) {
        storage.insert(element, at: start + index)
    }

    /// Removes the element at `index`.
    package mutating func remove(at index: Int) {
        storage.remove(at: start + index)
    }

    /// Forgets the `oldest` oldest elements (at most ``count``).
    package mutating func removeFirst(_ oldest: Int) {
        precondition((0...count).contains(oldest), "cannot remove \(oldest) of \(count) elements")
        start += oldest
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16, start * 2 >= storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }
}

extension FrontDroppingArray: Sendable where Element: Sendable {}

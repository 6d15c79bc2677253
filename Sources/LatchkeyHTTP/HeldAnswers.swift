import Dispatch
import Foundation
import LatchkeyCore
import Synchronization

/// Busy answers (`503` for a full worker queue) held back for a fixed time before they are
/// sent, each on its suspended connection — no thread waits per answer.
///
/// A client that retries the moment it is refused (a flood ignores `Retry-After`) would
/// otherwise turn each refusal into the cheapest request there is, and its retries, a few
/// thousand a second, take the event thread from everyone else. Held, each connection
/// makes at most one attempt per ``hold``; the per-address connection cap bounds how many
/// connections a client has. One thread sends the answers as they fall due, oldest first
/// (they all wait the same time, so that is the order they fall due in).
final class HeldAnswers: Sendable {
    private struct Held {
        let due: ContinuousClock.Instant
        let record: ConnectionRecord
        let response: HTTPResponse
    }

    private struct State {
        var held = FrontDroppingArray<Held>()
        var closed = false
    }

    /// What the sending thread does next.
    private enum Step {
        case send(Held)
        case wait(until: Duration?)
        case finish
    }

    /// How long each answer is held.
    let hold: Duration
    private let limit: Int
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Holds each answer for `hold`, at most `limit` at once (one per connection at most).
    init(hold: Duration, limit: Int) {
        self.hold = hold
        self.limit = limit
    }

    /// Starts the thread that sends the answers.
    func start() {
        let thread = Thread { [self] in
            while let next = nextDue() {
                next.record.deliver(next.response)
            }
            finished.signal()
        }
        thread.name = "latchkey-http-held-answers"
        thread.start()
    }

    /// Holds `response` for `record`'s connection, which the caller has suspended; false
    /// (nothing held) when ``limit`` answers are held already or the holder is closed — the
    /// caller then answers at once.
    func add(_ response: HTTPResponse, for record: ConnectionRecord) -> Bool {
        let added = state.withLock { state -> Bool? in
            guard !state.closed, state.held.count < limit else { return nil }
            state.held.append(Held(due: .now + hold, record: record, response: response))
            return state.held.count == 1
        }
        guard let added else { return false }
        // Only an empty holder's thread may be waiting with no deadline.
        if added { wakeUp.signal() }
        return true
    }

    /// Takes no more answers; every answer still held is sent at once, and the thread ends.
    func close() {
        state.withLock { $0.closed = true }
        wakeUp.signal()
    }

    /// Waits until the thread has sent every held answer and ended (after ``close()``).
    func join() {
        finished.wait()
    }

    /// The next answer once it falls due (at once after ``close()``); nil when closed and
    /// none is left.
    private func nextDue() -> Held? {
        while true {
            let step = state.withLock { state -> Step in
                guard let first = state.held.first else { return state.closed ? .finish : .wait(until: nil) }
                let remaining = ContinuousClock.now.duration(to: first.due)
                guard state.closed || remaining <= .zero else { return .wait(until: remaining) }
                state.held.removeFirst(1)
                return .send(first)
            }
            switch step {
            case .send(let held):
                return held
            case .finish:
                return nil
            case .wait(until: nil):
                wakeUp.wait()
            case .wait(until: let remaining?):
                let (seconds, attoseconds) = remaining.components
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
            }
        }
    }
}

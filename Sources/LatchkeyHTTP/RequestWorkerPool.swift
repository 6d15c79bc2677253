import Dispatch
import Foundation
import Synchronization

/// A fixed number of threads that run request handlers, behind a first-in first-out queue
/// of bounded length. A job that finds the queue full is refused at once (the caller
/// answers 503), so neither threads nor waiting work grow with the load.
final class RequestWorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue {
        var slots: [Job?]
        var head = 0
        var count = 0
        var closed = false
    }

    private let threadCount: Int
    private let queue: Mutex<Queue>
    private let available = DispatchSemaphore(value: 0)
    private let running = DispatchGroup()

    /// Creates a pool of `threads` threads (started by ``start()``) whose queue holds at most
    /// `queueLimit` jobs that no thread has taken yet.
    init(threads: Int, queueLimit: Int) {
        threadCount = threads
        queue = Mutex(Queue(slots: Array(repeating: nil, count: queueLimit)))
    }

    /// Starts the threads.
    func start() {
        for index in 0..<threadCount {
            running.enter()
            let thread = Thread { [self] in
                while let job = nextJob() { job() }
                running.leave()
            }
            thread.name = "latchkey-http-worker-\(index)"
            thread.start()
        }
    }

    /// Queues `job` to run on a pool thread; false, and the job is dropped, when the queue
    /// is full or the pool is closed.
    func submit(_ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.closed, queue.count < queue.slots.count else { return false }
            queue.slots[(queue.head + queue.count) % queue.slots.count] = job
            queue.count += 1
            return true
        }
        if queued { available.signal() }
        return queued
    }

    /// Refuses further jobs and drops the queued ones no thread has taken; each thread ends
    /// after the job it is running.
    func close() {
        queue.withLock { queue in
            queue.closed = true
            queue.slots = Array(repeating: nil, count: queue.slots.count)
            queue.count = 0
        }
        for _ in 0..<threadCount { available.signal() }
    }

    /// Waits until every thread has ended (after ``close()``).
    func join() {
        running.wait()
    }

    private func nextJob() -> Job? {
        while true {
            available.wait()
            let (job, closed) = queue.withLock { queue -> (Job?, Bool) in
                guard queue.count > 0 else { return (nil, queue.closed) }
                let job = queue.slots[queue.head]
                queue.slots[queue.head] = nil
                queue.head = (queue.head + 1) % queue.slots.count
                queue.count -= 1
                return (job, false)
            }
            if let job { return job }
            if closed { return nil }
        }
    }
}

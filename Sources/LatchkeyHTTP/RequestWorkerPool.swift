import Dispatch
import LatchkeyCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fixed number of threads that run request handlers, behind a first-in first-out queue
/// of bounded length. A request that finds the queue full is refused (the caller answers
/// 503), so neither threads nor waiting work grow with the load.
final class RequestWorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue {
        var slots: [Job?]
        var head = 0
        var count = 0
        var reserved = 0
        var closed = false
    }

    private let name: String
    private let threadCount: Int
    private let lowPriority: Bool
    private let queue: Mutex<Queue>
    private let available = DispatchSemaphore(value: 0)
    private let running = DispatchGroup()

    /// Creates a pool of `threads` threads named `name-N` (started by ``start()``), at the
    /// lowest scheduling priority when `lowPriority`, whose queue holds at most `queueLimit`
    /// jobs that no thread has taken yet.
    init(name: String, threads: Int, queueLimit: Int, lowPriority: Bool = false) {
        self.name = name
        threadCount = threads
        self.lowPriority = lowPriority
        queue = Mutex(Queue(slots: Array(repeating: nil, count: queueLimit)))
    }

    /// Starts the threads.
    func start() {
        for index in 0..<threadCount {
            running.enter()
            let thread = Thread { [self] in
                Self.yieldToEventThreads()
                if lowPriority { ThreadPriority.lowerCurrentThread() }
                while let job = nextJob() { job() }
                running.leave()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Takes a place in the queue for a job that ``submit(_:)`` then queues; false when the
    /// queue is full (places taken count as full) or the pool is closed. A place is taken
    /// first and the job queued after, so nothing is held while a worker wakes up.
    func reserve() -> Bool {
        queue.withLock { queue in
            guard !queue.closed, queue.count + queue.reserved < queue.slots.count else { return false }
            queue.reserved += 1
            return true
        }
    }

    /// Queues `job` in the place ``reserve()`` took, to run on a pool thread; false, and the
    /// job is dropped, when the pool was closed meanwhile.
    func submit(_ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue in
            queue.reserved -= 1
            guard !queue.closed else { return false }
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

    /// Puts the calling thread in Linux's batch scheduling class: same share of the CPU, but
    /// waking it does not preempt the running thread. An event thread that hands a request
    /// over then goes on reading and answering the others instead of switching to the worker
    /// at once, and the worker takes the queued requests in one go (measured: from 1.6 to
    /// under 1 context switch per request on one core). Best effort: left as is on failure.
    private static func yieldToEventThreads() {
        let batchPolicy: Int32 = 3  // SCHED_BATCH; Glibc does not export it to Swift
        var parameters = sched_param()
        _ = pthread_setschedparam(pthread_self(), batchPolicy, &parameters)
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

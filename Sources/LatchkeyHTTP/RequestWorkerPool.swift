import Dispatch
import LatchkeyCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fixed number of threads that run request handlers, behind a first-in first-out queue
/// of bounded length. A request that finds the queue full is refused (the caller answers
/// 503), so neither threads nor waiting work grow with the load.
///
/// Idle threads are woken one at a time: a job queued while a woken thread has not yet taken
/// one wakes nobody, and a thread that takes a job and leaves more queued wakes the next.
/// Waking a thread per job made a burst of cheap requests wake as many threads as it had
/// requests, each for one job and a context switch; now a thread that is running takes the
/// queued jobs one after another, and more threads join only as the ones running block (on
/// the database, or gathering at SQLite's writer).
final class RequestWorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    /// The queued jobs and who waits for them; its methods decide when a thread is woken.
    struct Queue: Sendable {
        var slots: [Job?]
        var head = 0
        var count = 0
        var reserved = 0
        var closed = false
        /// Threads waiting for a job, not yet woken.
        var sleeping = 0
        /// Threads woken that have not yet looked for a job.
        var waking = 0

        init(limit: Int) {
            slots = Array(repeating: nil, count: limit)
        }

        /// Queues `job` in a place taken before; true when a sleeping thread is to be woken
        /// for it (none is on its way already).
        mutating func enqueue(_ job: @escaping Job) -> Bool {
            slots[(head + count) % slots.count] = job
            count += 1
            return wakeOne()
        }

        /// For a thread looking for a job (`woken`: after a wake-up): the oldest job, and
        /// whether to wake another thread for the jobs left; no job when there is none (the
        /// thread then counts as sleeping) or the pool is `closed`.
        mutating func take(woken: Bool) -> (job: Job?, closed: Bool, wakes: Bool) {
            if woken { waking -= 1 }
            guard !closed else { return (nil, true, false) }
            guard count > 0 else {
                sleeping += 1
                return (nil, false, false)
            }
            let job = slots[head]
            slots[head] = nil
            head = (head + 1) % slots.count
            count -= 1
            return (job, false, count > 0 && wakeOne())
        }

        /// Marks one sleeping thread as woken, when none is on its way already; whether one was.
        private mutating func wakeOne() -> Bool {
            guard waking == 0, sleeping > 0 else { return false }
            sleeping -= 1
            waking += 1
            return true
        }
    }

    private let name: String
    private let threadCount: Int
    private let priority: ThreadPriority?
    /// Taken by the event thread (to submit) and the workers (to take): a waiter sleeps at
    /// once rather than spin while a preempted worker holds it (``SleepingLock``).
    private let queue: SleepingLock<Queue>
    private let available = DispatchSemaphore(value: 0)
    private let running = DispatchGroup()

    /// Creates a pool of `threads` threads named `name-N` (started by ``start()``), at
    /// `priority` when one is given, whose queue holds at most `queueLimit` jobs that no
    /// thread has taken yet.
    init(name: String, threads: Int, queueLimit: Int, priority: ThreadPriority? = nil) {
        self.name = name
        threadCount = threads
        self.priority = priority
        queue = SleepingLock(Queue(limit: queueLimit))
    }

    /// Starts the threads.
    func start() {
        for index in 0..<threadCount {
            running.enter()
            let thread = Thread { [self] in
                Self.yieldToEventThreads()
                priority?.lowerCurrentThread()
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
        let (queued, wakes) = queue.withLock { queue -> (Bool, Bool) in
            queue.reserved -= 1
            guard !queue.closed else { return (false, false) }
            return (true, queue.enqueue(job))
        }
        if wakes { available.signal() }
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
    /// waking it does not preempt the running thread. An event thread that hands a request over
    /// then goes on reading and answering the others instead of switching to the worker at
    /// once, and the worker takes the queued requests in one go, with fewer context switches a
    /// request (measured: docs/performance.md, "Workers in the batch class"). Best effort: left
    /// as is on failure.
    private static func yieldToEventThreads() {
        let batchPolicy: Int32 = 3  // SCHED_BATCH; Glibc does not export it to Swift
        var parameters = sched_param()
        _ = pthread_setschedparam(pthread_self(), batchPolicy, &parameters)
    }

    /// The next job, waiting for one while there is none; nil once the pool is closed.
    private func nextJob() -> Job? {
        var woken = false
        while true {
            let (job, closed, wakes) = queue.withLock { $0.take(woken: woken) }
            if wakes { available.signal() }
            if let job { return job }
            if closed { return nil }
            available.wait()
            woken = true
        }
    }
}

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
/// Beside the requests, a second bounded queue holds follow-ups: the answers of requests a
/// worker handled already whose deferred write has settled since, to be finished (headers,
/// metrics, access log) and sent. The thread that settles a write (a store's committer) only
/// queues its follow-up, in a place the worker took when its handler returned
/// (``reserveFollowUp()``): with as many follow-ups outstanding as requests may wait, the
/// worker gets no place and waits for its write itself, so the answers waiting for writes
/// are bounded too. Follow-ups go before requests (they finish work begun, and are short),
/// and a stop runs them all: each carries a response whose completion must be called.
///
/// Idle threads are woken one at a time: a job queued while a woken thread has not yet taken
/// one wakes nobody, and a thread that takes a job and leaves more queued wakes the next.
/// Waking a thread per job made a burst of cheap requests wake as many threads as it had
/// requests, each for one job and a context switch; now a thread that is running takes the
/// queued jobs one after another, and more threads join only as the ones running block (on
/// the database, or gathering at SQLite's writer).
final class RequestWorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    /// Jobs in first-in first-out order, in a ring of fixed size, with places taken for jobs
    /// still to come (``reserved``).
    struct Jobs: Sendable {
        private var slots: [Job?]
        private var head = 0
        private(set) var count = 0
        var reserved = 0

        init(limit: Int) {
            slots = Array(repeating: nil, count: limit)
        }

        /// Whether every place is taken, by a job or a reservation.
        var isFull: Bool { count + reserved >= slots.count }

        /// Adds `job` at the end, in a place reserved before.
        mutating func append(_ job: @escaping Job) {
            slots[(head + count) % slots.count] = job
            count += 1
        }

        /// Takes the oldest job; nil when there is none.
        mutating func removeFirst() -> Job? {
            guard count > 0 else { return nil }
            let job = slots[head]
            slots[head] = nil
            head = (head + 1) % slots.count
            count -= 1
            return job
        }

        /// Drops every queued job (reservations stay).
        mutating func removeAll() {
            slots = Array(repeating: nil, count: slots.count)
            head = 0
            count = 0
        }
    }

    /// The queued jobs and who waits for them; its methods decide when a thread is woken.
    struct Queue: Sendable {
        var requests: Jobs
        var followUps: Jobs
        var closed = false
        /// Threads waiting for a job, not yet woken.
        var sleeping = 0
        /// Threads woken that have not yet looked for a job.
        var waking = 0

        init(limit: Int) {
            requests = Jobs(limit: limit)
            followUps = Jobs(limit: limit)
        }

        /// The jobs queued, requests and follow-ups.
        var count: Int { requests.count + followUps.count }

        /// Queues `job` in a place taken before in `requests` (or `followUps`: `followUp`);
        /// true when a sleeping thread is to be woken for it (none is on its way already).
        mutating func enqueue(_ job: @escaping Job, followUp: Bool = false) -> Bool {
            if followUp {
                followUps.reserved -= 1
                followUps.append(job)
            } else {
                requests.append(job)
            }
            return wakeOne()
        }

        /// For a thread looking for a job (`woken`: after a wake-up): the oldest follow-up, else
        /// the oldest request, and whether to wake another thread for the jobs left; no job
        /// when there is none (the thread then counts as sleeping). Once the pool is `closed`,
        /// only follow-ups: a thread sleeps while a reserved one is still to come, and ends
        /// (`closed`) when none is, waking the next sleeping thread to end too.
        mutating func take(woken: Bool) -> (job: Job?, closed: Bool, wakes: Bool) {
            if woken { waking -= 1 }
            if let job = followUps.removeFirst() ?? (closed ? nil : requests.removeFirst()) {
                return (job, false, count > 0 && wakeOne())
            }
            guard !closed || followUps.reserved > 0 else { return (nil, true, wakeOne()) }
            sleeping += 1
            return (nil, false, false)
        }

        /// Marks one sleeping thread as woken, when none is on its way already; whether one was.
        mutating func wakeOne() -> Bool {
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
            guard !queue.closed, !queue.requests.isFull else { return false }
            queue.requests.reserved += 1
            return true
        }
    }

    /// Queues `job` in the place ``reserve()`` took, to run on a pool thread; false, and the
    /// job is dropped, when the pool was closed meanwhile.
    func submit(_ job: @escaping Job) -> Bool {
        let (queued, wakes) = queue.withLock { queue -> (Bool, Bool) in
            queue.requests.reserved -= 1
            guard !queue.closed else { return (false, false) }
            return (true, queue.enqueue(job))
        }
        if wakes { available.signal() }
        return queued
    }

    /// Takes a place for a follow-up that ``submitFollowUp(_:)`` queues later, from any
    /// thread; false when as many follow-ups are outstanding (queued or with a place) as
    /// requests may wait, or the pool is closed. Every place taken must be filled: the pool's threads do not end
    /// while one is still to come.
    func reserveFollowUp() -> Bool {
        queue.withLock { queue in
            guard !queue.closed, !queue.followUps.isFull else { return false }
            queue.followUps.reserved += 1
            return true
        }
    }

    /// Queues `job` in the place ``reserveFollowUp()`` took, to run on a pool thread before
    /// the requests waiting — also after ``close()``. Never waits: the caller may be a thread
    /// that must not (the committer that settled a deferred write).
    func submitFollowUp(_ job: @escaping Job) {
        let wakes = queue.withLock { $0.enqueue(job, followUp: true) }
        if wakes { available.signal() }
    }

    /// Refuses further jobs and drops the queued requests no thread has taken; each thread
    /// ends after the job it is running, once no follow-up is queued or still to come.
    func close() {
        let wakes = queue.withLock { queue -> Bool in
            queue.closed = true
            queue.requests.removeAll()
            // A sleeping thread woken now ends and wakes the next, or waits for the follow-ups.
            return queue.wakeOne()
        }
        if wakes { available.signal() }
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

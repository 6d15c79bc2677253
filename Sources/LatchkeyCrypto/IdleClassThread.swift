#if os(Linux)
import CLinux
import Glibc
import Synchronization
#endif

/// Runs a computation on a thread of its own in Linux's idle scheduling class (`SCHED_IDLE`)
/// and waits for its result, or starts one without waiting (``start(_:)``). An idle-class
/// thread runs on the CPU time other threads leave, and any other thread that wakes takes
/// the processor from it at once — where a request worker (batch class) that wakes behind
/// a nice-19 thread waits for the scheduler's next tick, up to milliseconds. For a password
/// hash: tens of milliseconds of computing that must delay no request; for ES256 nonces
/// prepared ahead (``LibCrypto/P256Signer``): work that only idle time should pay for.
///
/// A thread per computation, because a thread cannot leave the idle class again without
/// `CAP_SYS_NICE`, and the caller (a request handler) goes on to write to the database: it
/// must not run those writes, which others may wait for, at idle priority. Starting a thread
/// costs tens of microseconds against the hash's tens of milliseconds. The caller bounds how
/// many run at once (the server's hashing threads). When no thread can be started, and on
/// other systems, ``run(_:)`` computes on the calling thread.
///
/// The thread also gives the processor up every ``yieldInterval`` while it computes. Linux's
/// scheduler (EEVDF) still picks an idle-class thread now and then while another thread is
/// runnable — one woken a moment before, say, by a request worker that then blocked — and
/// then lets it run until the next tick (4 ms at 250 Hz): under a login flood a request
/// thread waited that long behind a password hash every 100 ms or so, some 2 % of the time,
/// and `/validate`'s p99 went from 0.3 ms to 2.4 ms. A timer of the thread's own sends it a
/// signal whose handler calls `sched_yield`, which charges the thread for the time it has
/// run and so lets the waiting thread in.
package enum IdleClassThread {
    /// How often a computing idle-class thread gives the processor up: a quarter of a tick
    /// at 250 Hz, a thousand signals a second while it computes.
    package static let yieldInterval: Duration = .milliseconds(1)

    /// The result of `work`, computed on a new idle-class thread (best effort: if the class
    /// cannot be set, that thread computes at the caller's priority).
    package static func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) -> Output {
        #if os(Linux)
        let computation = Computation(work)
        guard let thread = startThread(computation) else { return work() }
        pthread_join(thread, nil)
        return computation.output()
        #else
        return work()
        #endif
    }

    /// Starts `work` on a new idle-class thread, which ends with it, and returns at once: for
    /// work done ahead of need in the time other threads leave. False, and nothing started,
    /// when no thread can be started, and on other systems.
    package static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
        guard let thread = startThread(Computation(work)) else { return false }
        pthread_detach(thread)
        return true
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// A new thread that moves itself to the idle class and runs `computation`; nil when none
    /// could be started.
    private static func startThread(_ computation: AnyComputation) -> pthread_t? {
        let context = Unmanaged.passRetained(computation).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let computation = Unmanaged<AnyComputation>.fromOpaque(context!).takeRetainedValue()
            let idlePolicy: Int32 = 5  // SCHED_IDLE; Glibc does not export it to Swift
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), idlePolicy, &parameters)
            let yielding = YieldTimer()
            computation.run()
            _ = consume yielding
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<AnyComputation>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// How many times computing idle-class threads gave the processor up (for tests).
    package static var yieldsTaken: Int { YieldTimer.yields.load(ordering: .relaxed) }
    #endif
}

#if os(Linux)
/// While it lives, signals the thread that made it every ``IdleClassThread/yieldInterval``;
/// the signal's handler gives the processor up. Nil when the handler or the timer cannot be
/// set up: the thread then computes without yielding.
private struct YieldTimer: ~Copyable {
    /// The signal: a realtime one nothing else in the process uses.
    static let signal = latchkey_realtime_signal(7)
    /// Every yield the handler made.
    static let yields = Atomic<Int>(0)
    /// Whether the handler is in place (installed once, on first use).
    static let handlerInstalled: Bool = {
        _ = yields.load(ordering: .relaxed)  // initialised before any handler reads it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            YieldTimer.yields.add(1, ordering: .relaxed)
            _ = sched_yield()
        }
        action.sa_flags = SA_RESTART
        return sigaction(signal, &action, nil) == 0
    }()

    /// The timer's id. Linux numbers a process's timers from 0 and glibc hands the number over
    /// as the pointer, so the first timer is a null one: only the status says whether a timer
    /// was made.
    private let timer: timer_t?

    init?() {
        guard Self.handlerInstalled else { return nil }
        // A new thread inherits its creator's signal mask, and Dispatch's threads block
        // nearly every signal.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, Self.signal)
        guard pthread_sigmask(SIG_UNBLOCK, &unblocked, nil) == 0 else { return nil }
        var created: timer_t?
        guard latchkey_create_thread_timer(Self.signal, &created) == 0 else { return nil }
        let (seconds, attoseconds) = IdleClassThread.yieldInterval.components
        let interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var schedule = itimerspec(it_interval: interval, it_value: interval)
        guard timer_settime(created, 0, &schedule, nil) == 0 else {
            timer_delete(created)
            return nil
        }
        timer = created
    }

    deinit {
        timer_delete(timer)
    }
}
#endif

#if os(Linux)
/// What the new thread runs, whatever the output's type.
private class AnyComputation {
    func run() {}
}

/// A computation and, once it has run, its output. Only the new thread touches it between
/// `pthread_create` and `pthread_join`, and the join orders its write before the caller's read.
private final class Computation<Output: Sendable>: AnyComputation {
    private let work: @Sendable () -> Output
    private var result: Output?

    init(_ work: @escaping @Sendable () -> Output) {
        self.work = work
    }

    override func run() {
        result = work()
    }

    func output() -> Output {
        guard let result else { preconditionFailure("the idle-class thread ended without an output") }
        return result
    }
}
#endif

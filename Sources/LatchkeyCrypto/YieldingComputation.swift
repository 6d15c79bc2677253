#if os(Linux)
import CLinux
import COpenSSL
import Glibc
import Synchronization
#endif

/// Runs a long computation — a password hash, a batch of ES256 nonces — on the calling
/// thread, which gives the processor up each time it has computed for half of
/// ``yieldInterval`` (checked every ``yieldInterval``) so that no request thread waits long
/// behind it.
///
/// Linux's scheduler (EEVDF) lets a computing thread run to the end of its slice, or to the
/// next tick (4 ms at 250 Hz), even when a request thread became runnable meanwhile: a request
/// worker (batch class) that wakes never preempts, and the scheduler now and then picks even an
/// idle-class thread over an event thread that was already waiting. Under a sign-in flood
/// `/validate` waited that long behind password hashes often enough to multiply its p99
/// (measured: docs/performance.md, "Computing threads yield"). A timer of the thread's own
/// sends it a signal whose handler calls `sched_yield`, which moves the thread's virtual
/// runtime to its deadline, so every thread waiting for the core goes first.
///
/// The thread's share of the processor is its scheduling class's and nice value's: yielding
/// only gives up the rest of a slice it has used computing, never a slice it has just got (see
/// `YieldTimer`). On other systems, and when no timer can be set up, the work runs without
/// yielding.
package enum YieldingComputation {
    /// How often a computing thread's timer fires: an eighth of a tick at 250 Hz, two thousand
    /// signals a second while it computes, none otherwise.
    package static let yieldInterval: Duration = .microseconds(500)

    /// The result of `work`, run on the calling thread, which yields while it computes.
    package static func run<Output>(_ work: () throws -> Output) rethrows -> Output {
        #if os(Linux)
        let yielding = YieldTimer()
        do {
            let output = try work()
            _ = consume yielding
            return output
        } catch {
            _ = consume yielding
            throw error
        }
        #else
        return try work()
        #endif
    }

    #if os(Linux)
    /// How many times computing threads gave the processor up (for tests).
    package static var yieldsTaken: Int { YieldTimer.yields.load(ordering: .relaxed) }
    #endif
}

#if os(Linux)
/// While it lives, signals the thread that made it every ``YieldingComputation/yieldInterval``;
/// the signal's handler gives the processor up if the thread has computed for at least
/// ``minimumRun`` since it last did. Nil when the handler or the timer cannot be set up: the
/// thread then computes without yielding.
///
/// The timer counts wall-clock time (a timer on the thread's CPU time fires only at the
/// scheduler's tick), so a thread that waited for the processor finds a signal waiting when
/// it gets it. Yielding then would give the processor straight back, charged as if the thread
/// had used its whole slice (EEVDF's `sched_yield` moves the thread's virtual runtime to its
/// deadline): a thread of lower weight than a busy one beside it — the idle class beside any
/// CPU-bound process — would never compute again (measured: docs/performance.md, "Sign-ins
/// beside a busy processor"). Counting the thread's own CPU time keeps its share: each time
/// it runs, it computes a while before it yields.
private struct YieldTimer: ~Copyable {
    /// The signal: a realtime one nothing else in the process uses.
    static let signal = latchkey_realtime_signal(7)
    /// How long a thread computes, in nanoseconds of its CPU time, between two yields: half
    /// the interval.
    static let minimumRun = nanoseconds(YieldingComputation.yieldInterval / 2)
    /// Every yield the handler made.
    static let yields = Atomic<Int>(0)
    /// Whether the handler is in place (installed once, on first use).
    static let handlerInstalled: Bool = {
        // Initialised before any handler reads them.
        _ = yields.load(ordering: .relaxed)
        _ = minimumRun
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, info, _ in
            // The thread's CPU time when it last yielded (or started): the timer's value.
            guard let info, let lastYield = latchkey_signal_value(info)?.assumingMemoryBound(to: Int.self)
            else { return }
            let now = threadCPUTime()
            guard now - lastYield.pointee >= YieldTimer.minimumRun else { return }
            YieldTimer.yields.add(1, ordering: .relaxed)
            _ = sched_yield()
            lastYield.pointee = now
        }
        action.sa_flags = SA_RESTART | SA_SIGINFO
        return sigaction(signal, &action, nil) == 0
    }()

    /// The timer's id. Linux numbers a process's timers from 0 and glibc hands the number over
    /// as the pointer, so the first timer is a null one: only the status says whether a timer
    /// was made.
    private let timer: timer_t?
    /// The thread's CPU time, in nanoseconds, when it last yielded; the handler's to read
    /// and write, on this thread only.
    private let lastYield: UnsafeMutablePointer<Int>

    init?() {
        guard Self.handlerInstalled else { return nil }
        // A new thread inherits its creator's signal mask, and Dispatch's threads block
        // nearly every signal.
        var unblocked = Self.signalSet()
        guard pthread_sigmask(SIG_UNBLOCK, &unblocked, nil) == 0 else { return nil }
        let lastYield = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        lastYield.initialize(to: threadCPUTime())
        var created: timer_t?
        guard latchkey_create_thread_timer(Self.signal, lastYield, &created) == 0 else {
            lastYield.deallocate()
            return nil
        }
        let interval = timespec(nanoseconds: Self.nanoseconds(YieldingComputation.yieldInterval))
        var schedule = itimerspec(it_interval: interval, it_value: interval)
        guard timer_settime(created, 0, &schedule, nil) == 0 else {
            timer_delete(created)
            lastYield.deallocate()
            return nil
        }
        timer = created
        self.lastYield = lastYield
    }

    deinit {
        // A signal already sent stays pending after the timer is gone: blocked, then taken
        // off, before the value it carries is freed.
        var blocked = Self.signalSet()
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        timer_delete(timer)
        var noWait = timespec()
        while sigtimedwait(&blocked, nil, &noWait) == Self.signal {}
        lastYield.deallocate()
    }

    /// A set holding only ``signal``.
    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        return set
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}

/// The calling thread's CPU time in nanoseconds (async-signal-safe).
private func threadCPUTime() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

private extension timespec {
    init(nanoseconds: Int) {
        self.init(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
#endif

#pragma once
// The C library's Linux-only calls Swift cannot reach through Glibc: macros (SIGRTMIN) and
// what <unistd.h> declares only with _GNU_SOURCE (gettid). Nothing here on other systems.
#ifdef __linux__
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

/// The realtime signal `offset` above SIGRTMIN (a function call in glibc, which keeps the
/// lowest realtime signals for itself).
static inline int latchkey_realtime_signal(int offset) { return SIGRTMIN + offset; }

/// Creates a CLOCK_MONOTONIC timer whose expiries send `signal`, carrying `value`, to the
/// calling thread only (SIGEV_THREAD_ID), not to the process; 0 on success, -1 with errno
/// otherwise.
static inline int latchkey_create_thread_timer(int signal, void *value, timer_t *timer) {
    struct sigevent event = {0};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = signal;
    event.sigev_value.sival_ptr = value;
    event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    return timer_create(CLOCK_MONOTONIC, &event, timer);
}

/// The value a signal carries (what `latchkey_create_thread_timer` was given), for an
/// SA_SIGINFO handler: a union member Swift cannot name.
static inline void *latchkey_signal_value(const siginfo_t *info) { return info->si_value.sival_ptr; }
#endif
